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

/// A registered feature set made from its extractor class.
template <typename ExtractorT>
static FeatureSetInfo makeFeatureSet(llvm::StringRef name,
                                     llvm::StringRef summary) {
  FeatureSetInfo info;
  info.name = name.str();
  info.summary = summary.str();
  info.create = [] { return std::make_unique<ExtractorT>(); };
  return info;
}

ComponentRegistry<FeatureSetInfo> &tessel::getFeatureSetRegistry() {
  static ComponentRegistry<FeatureSetInfo> *registry = [] {
    auto *registry = new ComponentRegistry<FeatureSetInfo>("feature set");
    registry->add(makeFeatureSet<AnalyticalFeatureExtractor>(
        "af", "DGD's seven analytical features (ICS'24)"));
    registry->add(makeFeatureSet<AnsorFeatureExtractor>(
        "ansor", "Ansor's per-statement features"));
    registry->add(makeFeatureSet<PrunerFeatureExtractor>(
        "pruner", "Pruner's statement and data-flow features"));
    return registry;
  }();
  return *registry;
}

std::vector<std::string> tessel::getFeatureExtractorNames() {
  std::vector<std::string> names;
  for (const FeatureSetInfo *info : getFeatureSetRegistry().getAll())
    names.push_back(info->name);
  return names;
}

llvm::Expected<std::unique_ptr<FeatureExtractor>>
tessel::createFeatureExtractor(llvm::StringRef spec) {
  auto parsed = getFeatureSetRegistry().parse(spec);
  if (!parsed)
    return parsed.takeError();
  return parsed->info->create();
}
