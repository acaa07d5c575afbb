//===- ModelTasksTest.cpp - Tasks of the frontend models ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Runs task extraction on real frontend IR (ResNet-50, BERT-base) when the
// files are present; skips otherwise. The task tables are printed.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Tuning/Search/SearchSpace.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <cstdlib>
#include <map>

using namespace mlir;
using namespace mlir::tessel;

namespace {

class ModelTasksTest : public SearchTest {
protected:
  /// Extracts the tasks of frontend model `file`, or std::nullopt when the
  /// file is missing (the test then skips).
  std::optional<std::vector<TuningTask>> modelTasks(StringRef file) {
    std::string dir = TESSEL_FRONTEND_IR_DIR;
    if (const char *env = std::getenv("TESSEL_FRONTEND_IR_DIR"))
      dir = env;
    SmallString<256> path(dir);
    llvm::sys::path::append(path, file);
    if (!llvm::sys::fs::exists(path))
      return std::nullopt;
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      ADD_FAILURE() << "cannot read " << path.str().str();
      return std::nullopt;
    }
    return extract((*buffer)->getBuffer());
  }

  static void print(StringRef title, ArrayRef<TuningTask> tasks) {
    std::printf("%s: %zu tasks\n", title.str().c_str(), tasks.size());
    std::printf("  %3s %6s %12s  %s\n", "#", "weight", "MFLOP", "task");
    for (auto [index, task] : llvm::enumerate(tasks))
      std::printf("  %3zu %6lld %12.1f  %s [%zu sketches]\n", index,
                  static_cast<long long>(task.weight), task.flops / 1e6,
                  task.describe().c_str(), task.sketches.size());
  }

  /// Every sketch of every task has a search space with valid samples.
  static void expectSamples(std::vector<TuningTask> &tasks) {
    llvm::Expected<DeviceDescription> device = findDevice("h100");
    ASSERT_TRUE(static_cast<bool>(device))
        << llvm::toString(device.takeError());
    RandomEngine rng(1);
    for (TuningTask &task : tasks) {
      for (SketchAttr sketch : task.sketches) {
        FailureOr<SearchSpace> space =
            SearchSpace::get(task.getTargetOp(), sketch, *device);
        ASSERT_TRUE(succeeded(space)) << task.describe();
        for (int i = 0; i < 10; ++i) {
          std::string why;
          EXPECT_TRUE(succeeded(space->sample(rng, &why)))
              << task.describe() << ": " << why;
        }
      }
    }
  }

  static std::map<std::string, std::pair<int64_t, int64_t>>
  countByKind(ArrayRef<TuningTask> tasks) {
    // kind -> (distinct tasks, occurrences)
    std::map<std::string, std::pair<int64_t, int64_t>> counts;
    for (const TuningTask &task : tasks) {
      ++counts[task.opKind].first;
      counts[task.opKind].second += task.weight;
    }
    return counts;
  }
};

TEST_F(ModelTasksTest, ResNet50) {
  std::optional<std::vector<TuningTask>> tasks =
      modelTasks("torchmlir-resnet50.mlir");
  if (!tasks)
    GTEST_SKIP() << "torchmlir-resnet50.mlir not found";
  print("ResNet-50", *tasks);
  auto counts = countByKind(*tasks);
  // After --tessel-fuse every convolution carries its BatchNorm (+ residual
  // add) + ReLU epilogue, except the two convolutions of each of the four
  // downsampling blocks, whose results meet in one add (which would have two
  // owners: it stays a kernel). The epilogues tell apart convolutions of
  // equal shapes, hence more distinct tasks than shapes (23).
  EXPECT_EQ(counts["conv_2d_nchw_fchw"], (std::pair<int64_t, int64_t>(27, 53)));
  EXPECT_EQ(counts["pooling_nchw_max"], (std::pair<int64_t, int64_t>(1, 1)));
  int64_t fusedConvs = 0;
  for (const TuningTask &task : *tasks)
    if (task.opKind == "conv_2d_nchw_fchw" && task.fusedConsumers == 1)
      fusedConvs += task.weight;
  EXPECT_EQ(fusedConvs, 45);
  for (const TuningTask &task : *tasks) {
    EXPECT_FALSE(task.sketches.empty()) << task.describe();
    EXPECT_GT(task.flops, 0) << task.describe();
    EXPECT_TRUE(task.getTargetOp()) << task.describe();
  }
  expectSamples(*tasks);
}

TEST_F(ModelTasksTest, BertBase) {
  std::optional<std::vector<TuningTask>> tasks =
      modelTasks("torchmlir-bert-base-seq128.mlir");
  if (!tasks)
    GTEST_SKIP() << "torchmlir-bert-base-seq128.mlir not found";
  print("BERT-base", *tasks);
  auto counts = countByKind(*tasks);
  // After --tessel-fuse, the attention products read their operands
  // through unit-dim reshapes moved into them (generics); the FFN's first
  // matmul carries its bias + GELU epilogue.
  EXPECT_EQ(counts["batch_matmul"], (std::pair<int64_t, int64_t>(3, 48)));
  std::map<std::string, int64_t> matmuls;
  for (const TuningTask &task : *tasks)
    if (task.flops >= 1e7)
      matmuls[task.describe()] = task.weight;
  std::map<std::string, int64_t> expected = {
      {"batch_matmul 1x128x768 * 1x768x768 f32", 24},
      {"generic 1x12x128x64 * 1x12x64x128 -> 1x12x128x128 [ppppr] f32 +1 "
       "fused +generic inlined",
       12},
      {"generic 1x12x128x128 * 1x12x128x64 -> 1x12x128x64 [ppppr] f32 +1 "
       "fused",
       12},
      {"batch_matmul 1x128x768 * 1x768x3072 f32 +1 fused", 12},
      {"batch_matmul 1x128x3072 * 1x3072x768 f32", 12},
  };
  EXPECT_EQ(matmuls, expected);
  expectSamples(*tasks);
}

} // namespace
