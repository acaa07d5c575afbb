//===- FeatureExtractor.cpp - Features of scheduled candidates -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Features/FeatureExtractor.h"

#include "tessel/Tuning/Features/AnalyticalFeatures.h"
#include "tessel/Tuning/Features/AnsorFeatures.h"
#include "tessel/Tuning/Features/PrunerFeatures.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tessel;

FeatureExtractor::~FeatureExtractor() = default;

std::vector<std::string> FeatureExtractor::featureNames() const {
  std::vector<std::string> names;
  for (size_t i = 0, e = width(); i < e; ++i)
    names.push_back("f" + std::to_string(i));
  return names;
}

namespace {
/// One extractor createFeatureExtractor() knows.
struct ExtractorEntry {
  llvm::StringLiteral name;
  std::unique_ptr<FeatureExtractor> (*create)();
};
} // namespace

/// Every known extractor, sorted by name. To add one, add its entry here.
static const ExtractorEntry kExtractors[] = {
    {"af", [] () -> std::unique_ptr<FeatureExtractor> {
       return std::make_unique<AnalyticalFeatureExtractor>();
     }},
    {"ansor", [] () -> std::unique_ptr<FeatureExtractor> {
       return std::make_unique<AnsorFeatureExtractor>();
     }},
    {"pruner", [] () -> std::unique_ptr<FeatureExtractor> {
       return std::make_unique<PrunerFeatureExtractor>();
     }},
};

std::vector<std::string> tessel::getFeatureExtractorNames() {
  std::vector<std::string> names;
  for (const ExtractorEntry &entry : kExtractors)
    names.push_back(entry.name.str());
  llvm::sort(names);
  return names;
}

llvm::Expected<std::unique_ptr<FeatureExtractor>>
tessel::createFeatureExtractor(llvm::StringRef name) {
  for (const ExtractorEntry &entry : kExtractors)
    if (entry.name == name)
      return entry.create();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "unknown feature extractor '" + name + "'; known extractors: " +
          llvm::join(getFeatureExtractorNames(), ", "));
}
