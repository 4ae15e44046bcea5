/* The smallest exec: port (docs/port-protocol.md), for measuring the protocol's
 * overhead per case: it claims cann.calculate_matmul_weight_size and answers
 * every request with status 0 and a size of 0 elements, without parsing more
 * of the request than its id. Its answers are wrong on purpose: it measures
 * speed, it does not pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  printf(
      "{\"protocol\":\"npuconf-port\",\"protocol_version\":1,\"name\":\"echo\","
      "\"version\":\"1\",\"claims\":[\"cann.calculate_matmul_weight_size:*\"]}\n");
  fflush(stdout);
  char* line = NULL;
  size_t capacity = 0;
  while (getline(&line, &capacity, stdin) > 0) {
    const char* id = strstr(line, "\"id\":");
    printf(
        "{\"id\":%llu,\"result\":\"answered\",\"status\":0,\"message\":\"\",\"outputs\":"
        "[{\"name\":\"weight_tensor_size\",\"dims\":[],\"data\":\"AAAAAAAAAAA=\"}]}\n",
        id ? strtoull(id + 5, NULL, 10) : 0ull);
    fflush(stdout);
  }
  free(line);
  return 0;
}
