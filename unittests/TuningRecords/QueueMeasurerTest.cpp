//===- QueueMeasurerTest.cpp - The tuner's side of the queue --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "RecordsTestUtils.h"

#include "tessel/Tuning/Queue/QueueMeasurer.h"
#include "tessel/Tuning/Records/MeasurementQueue.h"

#include <chrono>
#include <future>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::records_test;

namespace {

class QueueMeasurerTest : public EngineTest {};
TESSEL_INSTANTIATE_ENGINE_TEST(QueueMeasurerTest);

/// Seen on an H100: a tuner started before its worker recorded under the
/// target's name (`cuda:h100-sxm`), a tuner started after under the GPU's.
/// A cuda: tuner now waits for a worker and always takes the GPU's name.
TEST_P(QueueMeasurerTest, CudaTunerWaitsForAWorkerToNameTheRecords) {
  std::string db = location();
  // Creates the database and its queue tables.
  ASSERT_TRUE(openOrFail(db));
  QueueMeasurerOptions options;
  options.database = db;
  options.target = "cuda:h100-sxm";
  options.workerPollSeconds = 0.02;
  std::future<llvm::Expected<CreatedMeasurer>> created = std::async(
      std::launch::async, [&] { return createQueueMeasurer(options); });
  EXPECT_EQ(created.wait_for(std::chrono::milliseconds(300)),
            std::future_status::timeout);

  std::unique_ptr<RecordsDatabase> workerDb = openOrFail(db);
  ASSERT_TRUE(workerDb);
  MeasurementQueue queue(*workerDb);
  ASSERT_FALSE(bool(queue.registerWorker(
      {"gpu0", "cuda:h100-sxm", "cuda:NVIDIA H100 80GB HBM3", "{}"})));
  ASSERT_EQ(created.wait_for(std::chrono::seconds(10)),
            std::future_status::ready);
  CreatedMeasurer measurer = get(created.get());
  EXPECT_EQ(measurer.measurer->name(), "cuda:NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(measurer.device);
  EXPECT_EQ(measurer.device->id, "h100-sxm");
}

TEST_P(QueueMeasurerTest, SimulatedTargetNeedsNoWorkerToStart) {
  QueueMeasurerOptions options;
  options.database = location();
  options.target = "sim:h100";
  CreatedMeasurer measurer = get(createQueueMeasurer(options));
  EXPECT_EQ(measurer.measurer->name(), "sim:h100-sxm");
}

} // namespace
