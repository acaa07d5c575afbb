//===- Check.h - Comparing kernel outputs with expected values --*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The element types of the measurement protocol (docs/MeasureProtocol.md)
// and the comparison of a kernel's output with the expected values:
// |got - want| <= atol + rtol * |want| per element, NaN never passes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_CHECK_H
#define TESSEL_RUNTIME_CHECK_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel {
namespace runtime {

/// An element type of a checked buffer.
enum class DType { F32, F64, F16, BF16, I8, I1, I32, I64 };

/// "f32", "f64", "f16", "bf16", "i8", "i1", "i32", "i64" (i1: a byte an
/// element, 0 or 1).
const char *stringifyDType(DType type);
/// The inverse of stringifyDType; std::nullopt for other strings.
std::optional<DType> symbolizeDType(std::string_view text);
/// Bytes per element.
size_t getDTypeSize(DType type);
/// Whether the type is a floating-point type.
bool isFloatDType(DType type);

/// IEEE binary16 bits as a double (exact).
double halfToDouble(uint16_t bits);
/// bfloat16 bits as a double (exact).
double bfloat16ToDouble(uint16_t bits);

/// The outcome of comparing `count` elements.
struct CompareResult {
  int64_t count = 0;
  /// Elements that failed |got - want| <= atol + rtol * |want| (NaN included).
  int64_t mismatches = 0;
  /// Index of the first failing element, -1 when all passed.
  int64_t firstMismatch = -1;
  /// The two values at firstMismatch.
  double firstGot = 0;
  double firstWant = 0;
  /// Largest |got - want| over elements where both are finite.
  double maxAbsError = 0;
  /// Largest |got - want| / |want| over elements where both are finite and
  /// want is not zero.
  double maxRelError = 0;

  bool passed() const { return mismatches == 0; }
  /// "3 of 1024 elements differ; first at index 17: got nan, want 0.5; max
  /// abs error 0.25, max rel error 0.5", or "all 1024 elements match".
  std::string describe() const;
};

/// Compares `count` elements of `type` in `got` with those in `want` (both
/// little-endian host memory, unaligned allowed). Equal values (infinities
/// included) pass; a NaN on either side fails.
CompareResult compareElements(DType type, const void *got, const void *want,
                              int64_t count, double rtol, double atol);

/// ||got - want||_2 / ||want||_2 (||got - want||_2 when want is all zero);
/// NaN when any element of `got` is not finite.
double relativeL2Error(const float *got, const double *want, size_t count);

} // namespace runtime
} // namespace tessel

#endif // TESSEL_RUNTIME_CHECK_H
