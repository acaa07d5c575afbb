//===- CandidateCodec.h - Candidates and results as text --------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A measurement candidate (its launch shape, ptxas resources, schedule
// facts, and for a compiled candidate its launch plan with the cubins and
// the reference data that checks it) and a measurement result, written as
// one JSON object each, so that a tuner can hand candidates to measurement
// workers on other hosts through the measurement queue (docs/Queue.md).
// Byte data (cubins, constants, reference tensors) is base64; the schedule
// facts are their dictionary attribute's text. decode(encode(x)) gives x
// back field for field.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_MEASURE_CANDIDATECODEC_H
#define TESSEL_TUNING_MEASURE_CANDIDATECODEC_H

#include "tessel/Tuning/Measure/Measurer.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>

#include <string>

namespace mlir {
class MLIRContext;
namespace tessel {

/// How encodeCandidate() writes the reference data.
struct CandidateEncoding {
  /// When set, the reference data is not written; the candidate says that
  /// it is the reference of the candidate at this position of the same
  /// queue batch (candidates of one task share one reference, which can be
  /// megabytes: docs/Queue.md).
  std::optional<int64_t> referenceAt;
};

/// `candidate` as one line of JSON.
std::string encodeCandidate(const MeasureCandidate &candidate,
                            MLIRContext *context,
                            const CandidateEncoding &encoding = {});

/// Finds the reference data a candidate encoded with `referenceAt` points
/// to, given that position.
using ReferenceResolver =
    llvm::function_ref<llvm::Expected<std::shared_ptr<const ReferenceData>>(
        int64_t position)>;

/// The candidate of encodeCandidate() text; fails naming the first field
/// that is missing or malformed. A reference written as a position is
/// looked up with `resolveReference`, and is an error without it.
llvm::Expected<MeasureCandidate>
decodeCandidate(llvm::StringRef text, MLIRContext *context,
                ReferenceResolver resolveReference = nullptr);

/// The reference data written inline in encodeCandidate() text, or null
/// when the text has none (it has no reference, or points to another).
llvm::Expected<std::shared_ptr<const ReferenceData>>
decodeCandidateReference(llvm::StringRef text);

/// `result` as one line of JSON (MeasureResult::toJSON()).
std::string encodeResult(const MeasureResult &result);
/// The result of encodeResult() text.
llvm::Expected<MeasureResult> decodeResult(llvm::StringRef text);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_MEASURE_CANDIDATECODEC_H
