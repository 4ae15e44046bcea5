// <immintrin.h> for the files that hold AVX-512 kernels (see isa.h).
#pragma once

// GCC 12 warns inside its own AVX-512 headers wherever an intrinsic starts from
// _mm512_undefined_* (GCC bug 105593, fixed in GCC 13); the header is included
// here, between push and pop, so the warning stays on for our own code.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
