//===- TopKStrategyTest.cpp - ETO's TopK baseline -------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/TopKStrategy.h"

#include "tessel/InitAllDialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <deque>

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// A matmul MxK * KxN with a zero-filled init.
std::string matmul(int64_t m, int64_t n, int64_t k) {
  std::string a = llvm::formatv("tensor<{0}x{1}xf32>", m, k);
  std::string b = llvm::formatv("tensor<{0}x{1}xf32>", k, n);
  std::string c = llvm::formatv("tensor<{0}x{1}xf32>", m, n);
  return llvm::formatv(R"mlir(
func.func @f(%a: {0}, %b: {1}) -> {2} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {2}
  %c = linalg.fill ins(%zero : f32) outs(%e : {2}) -> {2}
  %r = linalg.matmul ins(%a, %b : {0}, {1}) outs(%c : {2}) -> {2}
  return %r : {2}
})mlir",
                       a, b, c);
}

class TopKStrategyTest : public ::testing::Test {
protected:
  TopKStrategyTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    auto found = findDevice("h100");
    EXPECT_TRUE(static_cast<bool>(found));
    if (found)
      device = *found;
    else
      llvm::consumeError(found.takeError());
  }

  /// The task of a one-matmul module.
  TuningTask &task(int64_t m, int64_t n, int64_t k) {
    modules.push_back(parseSourceString<ModuleOp>(matmul(m, n, k), &context));
    auto tasks = extractTasks(*modules.back(), &context);
    EXPECT_TRUE(static_cast<bool>(tasks));
    EXPECT_EQ(tasks->size(), 1u);
    return ownedTasks.emplace_back(std::move(tasks->front()));
  }

  ConfigAttr parseConfig(StringRef text) {
    return llvm::cast<ConfigAttr>(parseAttribute(text, &context));
  }

  MLIRContext context;
  DeviceDescription device;
  std::vector<OwningOpRef<ModuleOp>> modules;
  std::deque<TuningTask> ownedTasks;
};

/// Inner levels keep the gcd with what is left of the extent, innermost
/// first; the outermost level takes the rest.
TEST_F(TopKStrategyTest, AdaptConfigMovesTilesToNewExtents) {
  TuningTask &alpha = task(64, 64, 512);
  TaskSearchState state = TaskSearchState::create(alpha, device, 1);
  ASSERT_FALSE(state.spaces.empty());
  const SearchSpace &space = state.spaces.front();
  // beta: 128x64x256 (m 128 = 2*1*8*4*2, n 64 = 1*2*8*2*2, k 256 = 16*4*4).
  ConfigAttr beta = parseConfig(
      "#tessel.config<tiles = [[2, 1, 8, 4, 2], [1, 2, 8, 2, 2], [16, 4, 4]], "
      "unroll = 64, vector = [4, 4]>");
  std::optional<ConfigAttr> adapted = adaptConfig(space, beta);
  ASSERT_TRUE(adapted.has_value());
  EXPECT_EQ(*adapted,
            parseConfig("#tessel.config<tiles = [[1, 1, 8, 4, 2], [1, 2, 8, "
                        "2, 2], [32, 4, 4]], unroll = 64, vector = [4, 4]>"));
}

/// A tile that no longer fits the extent is cut to the gcd.
TEST_F(TopKStrategyTest, AdaptConfigCutsTilesThatDoNotDivide) {
  TuningTask &alpha = task(48, 64, 64);
  TaskSearchState state = TaskSearchState::create(alpha, device, 1);
  ConfigAttr beta = parseConfig(
      "#tessel.config<tiles = [[1, 1, 8, 4, 2], [1, 2, 8, 2, 2], [4, 4, 4]], "
      "unroll = 16, vector = [1, 1]>");
  std::optional<ConfigAttr> adapted = adaptConfig(state.spaces.front(), beta);
  ASSERT_TRUE(adapted.has_value());
  // m = 48: 2 | 48 -> 24; 4 | 24 -> 6; gcd(8, 6) = 2 -> 3; 1; block 3.
  EXPECT_EQ(getTileVectors(*adapted)[0], (SmallVector<int64_t>{3, 1, 2, 4, 2}));
}

/// k programs per round, best first; a round with one that runs ends it.
TEST_F(TopKStrategyTest, RoundsOfKUntilOneRuns) {
  TuningTask &beta = task(64, 64, 256);
  TuningTask &alpha = task(64, 64, 512);
  TaskSearchState betaState = TaskSearchState::create(beta, device, 2);
  std::vector<ProgramRef> programs;
  while (programs.size() < 7) {
    auto sampled = sampleUnseen(betaState, 1);
    ASSERT_EQ(sampled.size(), 1u);
    programs.push_back({sampled[0].sketch, sampled[0].config});
  }
  TaskSearchState state = TaskSearchState::create(alpha, device, 3);
  EtoTopKStrategy strategy(3, programs);

  // First round: three candidates (fewer if some do not adapt), all fail.
  std::vector<Candidate> first = strategy.propose(state, 64);
  ASSERT_FALSE(first.empty());
  EXPECT_LE(first.size(), 3u);
  std::vector<Trial> failed(first.size());
  for (auto [trial, candidate] : llvm::zip_equal(failed, first)) {
    trial.candidate = candidate;
    trial.result.status = MeasureStatus::LaunchError;
    state.record(trial);
  }
  ASSERT_FALSE(static_cast<bool>(strategy.observe(state, failed)));

  // Second round: new candidates; one runs, so the search ends.
  std::vector<Candidate> second = strategy.propose(state, 64);
  ASSERT_FALSE(second.empty());
  for (const Candidate &candidate : second)
    for (const Candidate &old : first)
      EXPECT_NE(candidate.getId(), old.getId());
  std::vector<Trial> ran(second.size());
  for (auto [trial, candidate] : llvm::zip_equal(ran, second)) {
    trial.candidate = candidate;
    trial.result.status = MeasureStatus::Ok;
    trial.result.timing.medianUs = 10;
    trial.gflops = 1;
    state.record(trial);
  }
  ASSERT_FALSE(static_cast<bool>(strategy.observe(state, ran)));
  EXPECT_TRUE(strategy.propose(state, 64).empty());
}

} // namespace
