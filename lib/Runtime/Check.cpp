//===- Check.cpp - Comparing kernel outputs with expected values ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace tessel::runtime;

const char *tessel::runtime::stringifyDType(DType type) {
  switch (type) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I8:
    return "i8";
  case DType::I1:
    return "i1";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  }
  return "?";
}

std::optional<DType> tessel::runtime::symbolizeDType(std::string_view text) {
  for (DType type : {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I8,
                     DType::I1, DType::I32, DType::I64})
    if (text == stringifyDType(type))
      return type;
  return std::nullopt;
}

size_t tessel::runtime::getDTypeSize(DType type) {
  switch (type) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I8:
  case DType::I1:
    return 1;
  }
  return 1;
}

bool tessel::runtime::isFloatDType(DType type) {
  return type == DType::F32 || type == DType::F64 || type == DType::F16 ||
         type == DType::BF16;
}

double tessel::runtime::halfToDouble(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exponent = (bits >> 10) & 0x1F;
  int mantissa = bits & 0x3FF;
  if (exponent == 0x1F)
    return mantissa ? std::nan("") : sign * INFINITY;
  if (exponent == 0)
    return sign * std::ldexp(static_cast<double>(mantissa), -24);
  return sign *
         std::ldexp(static_cast<double>(mantissa | 0x400), exponent - 25);
}

double tessel::runtime::bfloat16ToDouble(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

/// Element `index` of `data` as a double.
static double loadElement(DType type, const void *data, int64_t index) {
  const char *bytes =
      static_cast<const char *>(data) + index * getDTypeSize(type);
  switch (type) {
  case DType::F32: {
    float value;
    std::memcpy(&value, bytes, sizeof(value));
    return value;
  }
  case DType::F64: {
    double value;
    std::memcpy(&value, bytes, sizeof(value));
    return value;
  }
  case DType::F16:
  case DType::BF16: {
    uint16_t value;
    std::memcpy(&value, bytes, sizeof(value));
    return type == DType::F16 ? halfToDouble(value) : bfloat16ToDouble(value);
  }
  case DType::I8: {
    int8_t value;
    std::memcpy(&value, bytes, sizeof(value));
    return value;
  }
  case DType::I1: {
    uint8_t value;
    std::memcpy(&value, bytes, sizeof(value));
    return value & 1;
  }
  case DType::I32: {
    int32_t value;
    std::memcpy(&value, bytes, sizeof(value));
    return value;
  }
  case DType::I64: {
    int64_t value;
    std::memcpy(&value, bytes, sizeof(value));
    return static_cast<double>(value);
  }
  }
  return 0;
}

/// Whether two int64 elements are equal; compared exactly, since large
/// values do not fit a double.
static bool equalInt64(const void *got, const void *want, int64_t index) {
  int64_t a, b;
  std::memcpy(&a, static_cast<const char *>(got) + index * 8, 8);
  std::memcpy(&b, static_cast<const char *>(want) + index * 8, 8);
  return a == b;
}

CompareResult tessel::runtime::compareElements(DType type, const void *got,
                                               const void *want, int64_t count,
                                               double rtol, double atol) {
  CompareResult result;
  result.count = count;
  for (int64_t i = 0; i < count; ++i) {
    double g = loadElement(type, got, i);
    double w = loadElement(type, want, i);
    bool pass;
    bool exact = type == DType::I64 ? equalInt64(got, want, i) : g == w;
    if (std::isnan(g) || std::isnan(w)) {
      pass = false;
    } else if (exact) {
      pass = true;
    } else {
      // Distinct int64 values can round to the same double: they still
      // differ by at least one.
      double diff = std::max(std::fabs(g - w), type == DType::I64 ? 1.0 : 0.0);
      pass = diff <= atol + rtol * std::fabs(w);
      if (std::isfinite(diff)) {
        result.maxAbsError = std::max(result.maxAbsError, diff);
        if (w != 0)
          result.maxRelError =
              std::max(result.maxRelError, diff / std::fabs(w));
      }
    }
    if (pass)
      continue;
    if (result.mismatches++ == 0) {
      result.firstMismatch = i;
      result.firstGot = g;
      result.firstWant = w;
    }
  }
  return result;
}

static std::string formatValue(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.9g", value);
  return buffer;
}

std::string CompareResult::describe() const {
  if (passed())
    return "all " + std::to_string(count) + " elements match";
  return std::to_string(mismatches) + " of " + std::to_string(count) +
         " elements differ; first at index " + std::to_string(firstMismatch) +
         ": got " + formatValue(firstGot) + ", want " + formatValue(firstWant) +
         "; max abs error " + formatValue(maxAbsError) + ", max rel error " +
         formatValue(maxRelError);
}

double tessel::runtime::relativeL2Error(const float *got, const double *want,
                                        size_t count) {
  double diffSquares = 0, wantSquares = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(got[i]))
      return std::nan("");
    double diff = got[i] - want[i];
    diffSquares += diff * diff;
    wantSquares += want[i] * want[i];
  }
  if (wantSquares == 0)
    return std::sqrt(diffSquares);
  return std::sqrt(diffSquares / wantSquares);
}
