//===- BufferFeatures.h - Ansor's features of one buffer access -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The per-buffer features of Ansor's statement features, shared by the
// "ansor" extractor and the data-flow features of the "pruner" extractor.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LIB_TUNING_FEATURES_BUFFERFEATURES_H
#define TESSEL_LIB_TUNING_FEATURES_BUFFERFEATURES_H

#include "tessel/Tuning/Features/AnsorFeatures.h"
#include "tessel/Tuning/Features/Statements.h"

#include <array>

namespace mlir {
namespace tessel {
namespace features {

/// The kAnsorBufferFeatures features of access `b` of statement `s`,
/// unscaled, in the order of docs/Features.md (access type, scope, bytes,
/// unique bytes, lines, unique lines, reuse type, reuse distance in
/// iterations and bytes, reuse count, stride, the four counts per reuse).
std::array<double, kAnsorBufferFeatures>
computeBufferFeatures(const Statement &s, const BufferAccess &b);

/// The name of buffer feature `index`, e.g. "unique_bytes".
llvm::StringRef getBufferFeatureName(unsigned index);
/// Whether buffer feature `index` is a category (one-hot), not a count.
bool isOneHotBufferFeature(unsigned index);

} // namespace features
} // namespace tessel
} // namespace mlir

#endif // TESSEL_LIB_TUNING_FEATURES_BUFFERFEATURES_H
