/* A port built for another ABI version: it declines the runner's version. */
#include <stddef.h>

#include "npuconf/port.h"

__attribute__((visibility("default"))) const npuconf_port* npuconf_port_entry(
    uint32_t abi_version) {
  (void)abi_version;
  return NULL;
}
