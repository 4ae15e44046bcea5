/* A port that crashes on its first call: the runner must exit 3 and name the case. */
#include <stddef.h>

#include "npuconf/port.h"

static int32_t call(const npuconf_case* c, int64_t* vendor_status, char* message,
                    uint64_t message_bytes) {
  (void)c;
  (void)vendor_status;
  (void)message;
  (void)message_bytes;
  volatile int* null_pointer = NULL;
  return *null_pointer;
}

static const char* const kClaims[] = {"cann.calculate_matmul_weight_size_v2:*", NULL};
static const npuconf_port kPort = {NPUCONF_PORT_ABI_VERSION, "crash", "0", kClaims, call};

__attribute__((visibility("default"))) const npuconf_port* npuconf_port_entry(
    uint32_t abi_version) {
  (void)abi_version;
  return &kPort;
}
