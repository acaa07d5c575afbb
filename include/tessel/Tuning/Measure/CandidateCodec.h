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

#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class MLIRContext;
namespace tessel {

/// `candidate` as one line of JSON.
std::string encodeCandidate(const MeasureCandidate &candidate,
                            MLIRContext *context);
/// The candidate of encodeCandidate() text; fails naming the first field
/// that is missing or malformed.
llvm::Expected<MeasureCandidate> decodeCandidate(llvm::StringRef text,
                                                 MLIRContext *context);

/// `result` as one line of JSON (MeasureResult::toJSON()).
std::string encodeResult(const MeasureResult &result);
/// The result of encodeResult() text.
llvm::Expected<MeasureResult> decodeResult(llvm::StringRef text);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_MEASURE_CANDIDATECODEC_H
