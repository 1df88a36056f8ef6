/* Empty stand-in: Emscripten 3.1.6 ships no <mmintrin.h> (MMX has no wasm equivalent), but
 * Eigen's SSE path includes it. The SSE/SSE2..4.2 headers Eigen actually uses are mapped onto
 * wasm SIMD128 by Emscripten with -msimd128 -msse4.2. See TOOLCHAIN.md. */
#pragma once
