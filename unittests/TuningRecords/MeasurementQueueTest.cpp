//===- MeasurementQueueTest.cpp - Tests of the measurement queue ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "RecordsTestUtils.h"

#include "tessel/Tuning/Records/MeasurementQueue.h"

#include <thread>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::records_test;

namespace {

/// The queue of a fresh records database on each engine.
class MeasurementQueueTest : public EngineTest {
protected:
  void SetUp() override {
    EngineTest::SetUp();
    if (IsSkipped())
      return;
    db = openOrFail(location());
    ASSERT_TRUE(db);
    queue.emplace(*db);
  }

  std::optional<ClaimedItem> claim(llvm::StringRef worker, double lease = 60,
                                   llvm::StringRef target = "sim:h100-sxm") {
    return get(queue->claim(worker, target, lease, 2, "abandoned"));
  }

  std::unique_ptr<RecordsDatabase> db;
  std::optional<MeasurementQueue> queue;
};
TESSEL_INSTANTIATE_ENGINE_TEST(MeasurementQueueTest);

TEST_P(MeasurementQueueTest, ClaimsInOrderAndFinishesOnce) {
  ASSERT_FALSE(bool(queue->enqueue("b1", "sim:h100-sxm",
                                   {{"c0", 10}, {"c1", 11}, {"c2", 12}})));
  ASSERT_FALSE(bool(queue->enqueue("b2", "sim:a100-sxm4-80gb", {{"x", 1}})));
  EXPECT_EQ(get(queue->countUnfinished("b1")), 3);
  EXPECT_EQ(get(queue->getPendingTargets()),
            (std::vector<std::string>{"sim:a100-sxm4-80gb", "sim:h100-sxm"}));

  std::optional<ClaimedItem> first = claim("w1");
  std::optional<ClaimedItem> second = claim("w2");
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->candidate, "c0");
  EXPECT_EQ(first->noiseSeed, 10u);
  EXPECT_EQ(first->attempt, 1);
  EXPECT_EQ(second->candidate, "c1");
  // Another worker's claim cannot finish an item.
  EXPECT_FALSE(get(queue->finish(*first, "w2", "r0")));
  EXPECT_TRUE(get(queue->finish(*first, "w1", "r0")));
  // Finishing twice writes nothing the second time.
  EXPECT_FALSE(get(queue->finish(*first, "w1", "other")));
  EXPECT_TRUE(get(queue->finish(*second, "w2", "r1")));
  std::optional<ClaimedItem> third = claim("w1");
  ASSERT_TRUE(third);
  EXPECT_EQ(third->candidate, "c2");
  EXPECT_FALSE(claim("w1"));
  EXPECT_TRUE(get(queue->finish(*third, "w1", "r2")));

  std::vector<FinishedItem> finished = get(queue->getFinished("b1"));
  ASSERT_EQ(finished.size(), 3u);
  EXPECT_EQ(finished[0].position, 0);
  EXPECT_EQ(finished[0].result, "r0");
  EXPECT_EQ(finished[2].result, "r2");
  EXPECT_EQ(get(queue->countUnfinished("b1")), 0);
  ASSERT_FALSE(bool(queue->removeBatch("b1")));
  EXPECT_TRUE(get(queue->getFinished("b1")).empty());
  // The other target's item is still there for its workers.
  EXPECT_EQ(get(queue->countUnfinished("b2")), 1);
}

TEST_P(MeasurementQueueTest, ExpiredLeasesAreHandedOutAgain) {
  ASSERT_FALSE(bool(queue->enqueue("b", "sim:h100-sxm", {{"c", 7}})));
  std::optional<ClaimedItem> dead = claim("dead", /*lease=*/0.2);
  ASSERT_TRUE(dead);
  // Still leased.
  EXPECT_FALSE(claim("alive"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::optional<ClaimedItem> retaken = claim("alive");
  ASSERT_TRUE(retaken);
  EXPECT_EQ(retaken->id, dead->id);
  EXPECT_EQ(retaken->attempt, 2);
  EXPECT_EQ(retaken->noiseSeed, 7u);
  // The first worker comes back late: its result is not taken.
  EXPECT_FALSE(get(queue->finish(*dead, "dead", "late")));
  EXPECT_TRUE(get(queue->finish(*retaken, "alive", "on time")));
  std::vector<FinishedItem> finished = get(queue->getFinished("b"));
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].result, "on time");
}

TEST_P(MeasurementQueueTest, HeartbeatsKeepTheClaim) {
  ASSERT_FALSE(bool(queue->enqueue("b", "sim:h100-sxm", {{"c", 7}})));
  std::optional<ClaimedItem> item = claim("slow", /*lease=*/0.2);
  ASSERT_TRUE(item);
  EXPECT_TRUE(get(queue->renew(*item, "slow", 60)));
  // Another worker's renewal is refused.
  EXPECT_FALSE(get(queue->renew(*item, "other", 60)));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // The first lease would have run out; the renewed one has not.
  EXPECT_FALSE(claim("other"));
  EXPECT_TRUE(get(queue->finish(*item, "slow", "r")));
  // A finished item has no claim to renew.
  EXPECT_FALSE(get(queue->renew(*item, "slow", 60)));
}

TEST_P(MeasurementQueueTest, ItemsWhoseWorkersKeepDyingAreAbandoned) {
  ASSERT_FALSE(bool(queue->enqueue("b", "sim:h100-sxm", {{"c", 7}})));
  ASSERT_TRUE(claim("first", 0.05));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(claim("second", 0.05));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // Claimed twice (maxAttempts) and its lease ran out: finished as given up.
  EXPECT_FALSE(claim("third"));
  std::vector<FinishedItem> finished = get(queue->getFinished("b"));
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].result, "abandoned");
}

TEST_P(MeasurementQueueTest, OrphanedBatchesAreRemoved) {
  ASSERT_FALSE(
      bool(queue->enqueue("dead", "sim:h100-sxm", {{"a", 1}, {"b", 2}})));
  std::optional<ClaimedItem> held =
      get(queue->claim("w", "sim:h100-sxm", 60, 2, "abandoned", 0.2));
  ASSERT_TRUE(held);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_FALSE(bool(queue->enqueue("alive", "sim:h100-sxm", {{"c", 3}})));
  // The dead tuner's unclaimed item goes; the claimed one stays for its
  // worker; the live tuner's item is claimed.
  std::optional<ClaimedItem> next =
      get(queue->claim("w", "sim:h100-sxm", 60, 2, "abandoned", 0.2));
  ASSERT_TRUE(next);
  EXPECT_EQ(next->candidate, "c");
  EXPECT_EQ(get(queue->countUnfinished("dead")), 1);
  // Finished, the dead tuner's last item is an orphan too.
  EXPECT_TRUE(get(queue->finish(*held, "w", "r")));
  ASSERT_FALSE(bool(queue->touchBatch("alive")));
  EXPECT_FALSE(get(queue->claim("w", "sim:h100-sxm", 60, 2, "abandoned", 0.2)));
  EXPECT_TRUE(get(queue->getFinished("dead")).empty());
  EXPECT_EQ(get(queue->countUnfinished("alive")), 1);
}

TEST_P(MeasurementQueueTest, WorkersRegister) {
  ASSERT_FALSE(bool(queue->registerWorker(
      {"gpu0", "cuda:h100-sxm", "cuda:NVIDIA H100 80GB HBM3", "{}"})));
  ASSERT_FALSE(bool(
      queue->registerWorker({"sim0", "sim:h100-sxm", "sim:h100-sxm", "{}"})));
  // Registering again updates the worker.
  ASSERT_FALSE(bool(queue->registerWorker(
      {"gpu0", "cuda:h100-sxm", "cuda:NVIDIA H100 SXM5", "{\"sms\":132}"})));
  std::vector<WorkerInfo> workers = get(queue->getWorkers("cuda:h100-sxm"));
  ASSERT_EQ(workers.size(), 1u);
  EXPECT_EQ(workers[0].measurer, "cuda:NVIDIA H100 SXM5");
  EXPECT_EQ(workers[0].deviceJson, "{\"sms\":132}");
}

} // namespace
