//===- RegistryTest.cpp - Component specs and their options ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/CostModel/CostModelRegistry.h"
#include "tessel/Tuning/Tuner/StrategyRegistry.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

struct SampleOptions : ComponentOptions {
  Option<int> count{*this, "count", 8, "How many", {1, 64}};
  Option<double> share{*this, "share", 0.25, "A share", {0, 1}};
  Option<bool> flag{*this, "flag", false, "A switch"};
  Option<std::string> mode{*this,    "mode", "fast",
                           "A mode", {},     {"fast", "slow"}};
  Option<std::string> path{*this, "path", "", "A file"};
};

std::string parseError(llvm::StringRef text) {
  SampleOptions options;
  llvm::Error error = parseComponentOptions(options, text, "thing 'sample'");
  return error ? llvm::toString(std::move(error)) : "";
}

TEST(RegistryTest, ParsesAndPrintsEveryOption) {
  SampleOptions options;
  ASSERT_EQ(parseError(""), "");
  llvm::Error error = parseComponentOptions(
      options, "count=3 share=0.5 flag mode=slow path={a b}", "sample");
  ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
  EXPECT_EQ(options.count, 3);
  EXPECT_EQ(options.share, 0.5);
  EXPECT_TRUE(options.flag);
  EXPECT_EQ(options.mode.getValue(), "slow");
  EXPECT_EQ(options.path.getValue(), "a b");
  // Sorted by name, every option, values that parse back.
  EXPECT_EQ(getCanonicalSpec("sample", options),
            "sample count=3 flag=true mode=slow path={a b} share=0.5");
  SampleOptions copy;
  copy.copyFrom(options);
  EXPECT_EQ(getCanonicalSpec("sample", copy),
            getCanonicalSpec("sample", options));
  SampleOptions defaults;
  EXPECT_EQ(getCanonicalSpec("sample", defaults),
            "sample count=8 flag=false mode=fast path={} share=0.25");
}

TEST(RegistryTest, ErrorsNameTheOptionAndWhatIsAllowed) {
  EXPECT_EQ(parseError("cont=3"),
            "thing 'sample': unknown option 'cont' (options: count, flag, "
            "mode, path, share)");
  EXPECT_EQ(parseError("count=x"), "thing 'sample': count=x is not an integer");
  EXPECT_EQ(parseError("count=0"),
            "thing 'sample': count=0 is out of range: 1 to 64");
  EXPECT_EQ(parseError("share=1.5"),
            "thing 'sample': share=1.5 is out of range: 0 to 1");
  EXPECT_EQ(parseError("share=abc"),
            "thing 'sample': share=abc is not a number");
  EXPECT_EQ(parseError("flag=maybe"),
            "thing 'sample': flag=maybe is not a boolean (true or false)");
  EXPECT_EQ(parseError("mode=medium"),
            "thing 'sample': mode=medium is not one of: fast, slow");
  EXPECT_EQ(parseError("count"),
            "thing 'sample': option 'count' needs a value (count=...)");
  EXPECT_EQ(parseError("path='abc"),
            "thing 'sample': unterminated value of option 'path'");
}

TEST(RegistryTest, SpecsSplitAtTheName) {
  EXPECT_EQ(splitSpec("dgd window=3").first, "dgd");
  EXPECT_EQ(splitSpec("dgd window=3").second, "window=3");
  EXPECT_EQ(splitSpec("dgd{window=3}").second, "window=3");
  EXPECT_EQ(splitSpec("  random ").first, "random");
  EXPECT_EQ(splitSpec("random").second, "");
}

TEST(RegistryTest, StrategySpecsResolveToCanonicalForm) {
  auto specs = resolveStrategySpecs("evolutionary population=64", "", "");
  ASSERT_TRUE(static_cast<bool>(specs)) << llvm::toString(specs.takeError());
  EXPECT_EQ(specs->strategy,
            "evolutionary diversity-filter=0 epsilon-greedy=0.05 "
            "generations=4 measured-ratio=0.2 mutation-probability=0.85 "
            "population=64 tile-mutation-weight=0.9");
  EXPECT_EQ(specs->costModel, "xgboost init={} objective=auto save={} "
                              "threads=1 tree-method=hist");
  EXPECT_EQ(specs->features, "ansor");
  // A canonical spec resolves to itself.
  auto again =
      resolveStrategySpecs(specs->strategy, specs->costModel, specs->features);
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(again->strategy, specs->strategy);
  EXPECT_EQ(again->costModel, specs->costModel);

  auto psa = resolveStrategySpecs("psa", "", "");
  ASSERT_TRUE(static_cast<bool>(psa));
  EXPECT_EQ(psa->features, "pruner");
  EXPECT_EQ(psa->info->defaultMeasuresPerRound, 10);

  auto random = resolveStrategySpecs("random", "", "");
  ASSERT_TRUE(static_cast<bool>(random));
  EXPECT_EQ(random->strategy, "random");
  EXPECT_EQ(random->costModel, "");
}

TEST(RegistryTest, UnknownComponentsListTheKnownOnes) {
  auto unknown = resolveStrategySpecs("anneal", "", "");
  ASSERT_FALSE(static_cast<bool>(unknown));
  // `fasor` is registered only in builds with libtorch.
  bool fasor = getStrategyRegistry().lookup("fasor") != nullptr;
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            std::string("unknown strategy 'anneal' (known: dgd, eto, "
                        "eto-topk, evolutionary, ") +
                (fasor ? "fasor, " : "") + "psa, random)");
  auto model = resolveStrategySpecs("evolutionary", "lightgbm", "");
  ASSERT_FALSE(static_cast<bool>(model));
  EXPECT_EQ(llvm::toString(model.takeError()),
            "unknown cost model 'lightgbm' (known: random, xgboost)");
  auto features = resolveStrategySpecs("dgd", "", "tiramisu");
  ASSERT_FALSE(static_cast<bool>(features));
  EXPECT_EQ(llvm::toString(features.takeError()),
            "unknown feature set 'tiramisu' (known: af, ansor, pruner)");
  auto modelless = resolveStrategySpecs("random", "xgboost", "");
  ASSERT_FALSE(static_cast<bool>(modelless));
  EXPECT_EQ(llvm::toString(modelless.takeError()),
            "strategy 'random' uses no cost model or features");
}

} // namespace
