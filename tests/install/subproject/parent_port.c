/* Compiles against npuconf::port from a parent project; never loaded. */
#include <npuconf/port.h>

const npuconf_port* npuconf_port_entry(uint32_t abi_version) {
  (void)abi_version;
  return NULL;
}
