#include <malloc.h>

#include <climits>
#include <iostream>

#include "cli/cli.h"

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // Large tensors from the heap, kept there when freed: glibc otherwise maps
  // each buffer over 32 MiB afresh and unmaps it on free, and the kernel zeroes
  // every page again for the next case (the real model shapes: gigabytes per
  // property). Measured on the default main job (2 jobs, 2026-12-03): 27.6 s
  // of system time down to 7.1 s, peak RSS 1.61 GB → 1.57 GB. A process keeps
  // its peak heap until it ends; the per-case budget (--max-case-bytes) bounds it.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
  return npuconf::RunCli(argc, argv, std::cout, std::cerr);
}
