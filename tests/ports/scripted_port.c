/* A port whose claims and faults come from the environment, for the CLI's
 * tests of claims, exit codes and reports that survive:
 *   NPUCONF_TEST_CLAIMS   claims separated by ';' (unset: a NULL claims list)
 *   NPUCONF_TEST_HANG_AT  the call (1-based) at which the port blocks forever
 *   NPUCONF_TEST_RESULT   the call result it returns (unset: NPUCONF_CALL_UNCLAIMED),
 *                         with no message when set
 * Every call it does answer is answered "unclaimed". */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npuconf/port.h"

static char g_claim_text[4096];
static const char* g_claims[64];
static long g_calls = 0;

static int32_t call(const npuconf_case* c, int64_t* vendor_status, char* message,
                    uint64_t message_bytes) {
  (void)c;
  *vendor_status = 0;
  const char* hang_at = getenv("NPUCONF_TEST_HANG_AT");
  if (hang_at && ++g_calls >= atol(hang_at)) {
    for (;;) pause();
  }
  const char* result = getenv("NPUCONF_TEST_RESULT");
  if (result) return (int32_t)atol(result);
  if (message && message_bytes > 0) {
    strncpy(message, "scripted port answers nothing", message_bytes - 1);
    message[message_bytes - 1] = '\0';
  }
  return NPUCONF_CALL_UNCLAIMED;
}

static npuconf_port g_port = {NPUCONF_PORT_ABI_VERSION, "scripted", "0", NULL, call};

__attribute__((visibility("default"))) const npuconf_port* npuconf_port_entry(
    uint32_t abi_version) {
  (void)abi_version;
  const char* claims = getenv("NPUCONF_TEST_CLAIMS");
  if (claims) {
    strncpy(g_claim_text, claims, sizeof(g_claim_text) - 1);
    size_t n = 0;
    char* save = NULL;
    for (char* claim = strtok_r(g_claim_text, ";", &save); claim && n + 1 < 64;
         claim = strtok_r(NULL, ";", &save)) {
      g_claims[n++] = claim;
    }
    g_claims[n] = NULL;
    g_port.claims = g_claims;
  }
  return &g_port;
}
