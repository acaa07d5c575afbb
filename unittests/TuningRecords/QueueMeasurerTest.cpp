//===- QueueMeasurerTest.cpp - The tuner's side of the queue --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "RecordsTestUtils.h"

#include "tessel/Tuning/Measure/CandidateCodec.h"
#include "tessel/Tuning/Measure/LaunchPlan.h"
#include "tessel/Tuning/Measure/Reference.h"
#include "tessel/Tuning/Queue/QueueMeasurer.h"
#include "tessel/Tuning/Queue/Worker.h"
#include "tessel/Tuning/Records/MeasurementQueue.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <future>
#include <thread>

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

/// A cuda: tuner whose worker never comes stops waiting when the run stops
/// (its --time-limit), with an error that says which target had no worker.
TEST_P(QueueMeasurerTest, CudaTunerGivesUpWaitingForAWorkerWhenTheRunStops) {
  std::string db = location();
  ASSERT_TRUE(openOrFail(db));
  QueueMeasurerOptions options;
  options.database = db;
  options.target = "cuda:h100-sxm";
  options.workerPollSeconds = 0.01;
  int asked = 0;
  options.shouldGiveUp = [&] { return ++asked == 3; };
  llvm::Expected<CreatedMeasurer> created = createQueueMeasurer(options);
  ASSERT_FALSE(bool(created));
  std::string message = llvm::toString(created.takeError());
  EXPECT_NE(message.find("no worker of cuda:h100-sxm registered in the queue " +
                         db + " before the run stopped"),
            std::string::npos)
      << message;
  EXPECT_EQ(asked, 3);
}

TEST_P(QueueMeasurerTest, SimulatedTargetNeedsNoWorkerToStart) {
  QueueMeasurerOptions options;
  options.database = location();
  options.target = "sim:h100";
  CreatedMeasurer measurer = get(createQueueMeasurer(options));
  EXPECT_EQ(measurer.measurer->name(), "sim:h100-sxm");
}

/// A compiled candidate whose one buffer is the reference's input: the
/// fake runner's "sum" candidates time as the sum of their data's bytes.
MeasureCandidate sumCandidate(std::string key,
                              std::shared_ptr<const ReferenceData> reference) {
  auto plan = std::make_shared<LaunchPlan>();
  plan->binaries["kernels"] = "not a real cubin";
  PlanBuffer &input = plan->buffers.emplace_back();
  input.kind = PlanBuffer::Kind::Argument;
  input.argIndex = 0;
  input.bytes = static_cast<int64_t>(reference->inputs[0].data.size());
  PlanStep step;
  step.launch = PlanLaunch();
  step.launch->module = "kernels";
  step.launch->kernel = "k";
  plan->steps.push_back(step);
  MeasureCandidate candidate;
  candidate.key = std::move(key);
  candidate.plan = std::move(plan);
  candidate.reference = std::move(reference);
  return candidate;
}

std::shared_ptr<const ReferenceData> inputOf(size_t bytes, uint8_t value) {
  auto reference = std::make_shared<ReferenceData>();
  reference->inputs.push_back({"i8",
                               {static_cast<int64_t>(bytes)},
                               std::vector<uint8_t>(bytes, value)});
  return reference;
}

/// Registers the worker "gpu0" of an H100 in db's queue, as tessel-worker
/// --measure=cuda does on one, so that a cuda: tuner starts without waiting.
void registerH100Worker(const std::string &db) {
  std::unique_ptr<RecordsDatabase> conn = openOrFail(db);
  ASSERT_TRUE(conn);
  ASSERT_FALSE(bool(MeasurementQueue(*conn).registerWorker(
      {"gpu0", "cuda:h100-sxm", "cuda:NVIDIA H100 80GB HBM3", "{}"})));
}

/// Waits up to 5 s until db's queue holds `count` items.
void waitForQueuedItems(const std::string &db, int64_t count) {
  for (int i = 0;
       i < 500 && queryRawInt(db, "SELECT count(*) FROM queue_items") < count;
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

/// The options of a tuner for the H100 target whose run stops (its time
/// limit, a stop request) when `stopped` is set.
QueueMeasurerOptions stoppableH100TunerOptions(const std::string &db,
                                               std::atomic<bool> &stopped) {
  QueueMeasurerOptions options;
  options.database = db;
  options.target = "cuda:h100-sxm";
  options.pollSeconds = 0.01;
  options.shouldGiveUp = [&stopped] { return stopped.load(); };
  return options;
}

/// Starts the tuner's measurement of `batch` (kept alive by the caller) and
/// waits until its items are in db's queue.
std::future<std::vector<MeasureResult>>
enqueueBatch(Measurer &tuner, const std::vector<MeasureCandidate> &batch,
             const std::string &db) {
  std::future<std::vector<MeasureResult>> measured = std::async(
      std::launch::async, [&tuner, &batch] { return tuner.measure(batch); });
  waitForQueuedItems(db, static_cast<int64_t>(batch.size()));
  return measured;
}

/// The worker "gpu0" measuring with the fake CUDA runner (named like an
/// H100 through FAKE_RUNNER_NAME, which the caller sets).
WorkerOptions fakeH100WorkerOptions(const std::string &db) {
  WorkerOptions options;
  options.database = db;
  options.measure = "cuda";
  options.name = "gpu0";
  options.measurer.cuda.runnerPath = TESSEL_FAKE_RUNNER;
  options.pollSeconds = 0.01;
  return options;
}

/// A batch's candidates that share a reference carry it once: the first of
/// them has it, the others name its position; a CUDA worker (the fake
/// runner, named like an H100) reads it from there and measures each
/// candidate on its own data.
TEST_P(QueueMeasurerTest, SharedReferencesTravelOncePerBatch) {
  std::string db = location();
  ASSERT_TRUE(openOrFail(db));
  setenv("FAKE_RUNNER_NAME", "NVIDIA H100 80GB HBM3", 1);
  registerH100Worker(db);
  QueueMeasurerOptions options;
  options.database = db;
  options.target = "cuda:h100-sxm";
  options.pollSeconds = 0.02;
  CreatedMeasurer tuner = get(createQueueMeasurer(options));

  std::shared_ptr<const ReferenceData> a = inputOf(4096, 1), b = inputOf(16, 2);
  std::vector<MeasureCandidate> batch = {
      sumCandidate("sum0", a), sumCandidate("sum1", a), sumCandidate("sum2", b),
      sumCandidate("sum3", a)};
  std::future<std::vector<MeasureResult>> measured =
      enqueueBatch(*tuner.measurer, batch, db);
  // Before any worker runs: how the batch was written.
  EXPECT_EQ(queryRawInt(db, "SELECT count(*) FROM queue_items WHERE "
                            "candidate LIKE '%\"reference\":{%'"),
            2);
  EXPECT_EQ(queryRawInt(db, "SELECT count(*) FROM queue_items WHERE "
                            "candidate LIKE '%\"reference_at\":0%'"),
            2);
  EXPECT_EQ(queryRawInt(db, "SELECT position FROM queue_items WHERE candidate "
                            "LIKE '%\"reference_at\":0%' ORDER BY position"),
            1);
  EXPECT_EQ(queryRawInt(db, "SELECT position FROM queue_items WHERE candidate "
                            "LIKE '%\"reference_at\":0%' ORDER BY position "
                            "DESC"),
            3);

  WorkerOptions workerOptions = fakeH100WorkerOptions(db);
  workerOptions.maxItems = 4;
  llvm::Expected<WorkerSummary> summary = runWorker(workerOptions);
  unsetenv("FAKE_RUNNER_NAME");
  ASSERT_TRUE(bool(summary)) << llvm::toString(summary.takeError());
  EXPECT_EQ(summary->measured, 4);
  EXPECT_EQ(summary->malformed, 0);

  ASSERT_EQ(measured.wait_for(std::chrono::seconds(30)),
            std::future_status::ready);
  std::vector<MeasureResult> results = measured.get();
  ASSERT_EQ(results.size(), 4u);
  const double sums[] = {4096, 4096, 32, 4096};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(results[i].key, batch[i].key);
    ASSERT_EQ(results[i].status, MeasureStatus::Ok) << results[i].message;
    EXPECT_EQ(results[i].timing.medianUs, sums[i]) << batch[i].key;
    EXPECT_EQ(results[i].device, "cuda:NVIDIA H100 80GB HBM3");
  }
}

/// A run that stops while its batch waits keeps what workers finished,
/// takes the batch out of the queue, and withdraws the rest (never
/// measured, so the tuner records none of it).
TEST_P(QueueMeasurerTest, AStoppedRunKeepsFinishedResultsAndWithdrawsTheRest) {
  std::string db = location();
  std::unique_ptr<RecordsDatabase> workerDb = openOrFail(db);
  ASSERT_TRUE(workerDb);
  MeasurementQueue queue(*workerDb);
  ASSERT_FALSE(bool(queue.registerWorker(
      {"gpu0", "cuda:h100-sxm", "cuda:NVIDIA H100 80GB HBM3", "{}"})));
  std::atomic<bool> stopped = false;
  QueueMeasurerOptions options = stoppableH100TunerOptions(db, stopped);
  std::vector<std::string> notes;
  options.onNote = [&](llvm::StringRef text) { notes.push_back(text.str()); };
  CreatedMeasurer tuner = get(createQueueMeasurer(options));

  std::shared_ptr<const ReferenceData> data = inputOf(64, 1);
  std::vector<MeasureCandidate> batch = {sumCandidate("sum0", data),
                                         sumCandidate("sum1", data)};
  std::future<std::vector<MeasureResult>> measured =
      enqueueBatch(*tuner.measurer, batch, db);

  // A worker measures the first item; nobody takes the second.
  llvm::Expected<std::optional<ClaimedItem>> claimed =
      queue.claim("gpu0", "cuda:h100-sxm", 60, 3, "{}");
  ASSERT_TRUE(bool(claimed)) << llvm::toString(claimed.takeError());
  ASSERT_TRUE(claimed->has_value());
  EXPECT_EQ((*claimed)->position, 0);
  MeasureResult done;
  done.key = "sum0";
  done.device = "cuda:NVIDIA H100 80GB HBM3";
  done.timing.medianUs = 7;
  done.timing.repeats = 1;
  llvm::Expected<bool> finished =
      queue.finish(**claimed, "gpu0", encodeResult(done));
  ASSERT_TRUE(bool(finished) && *finished);
  stopped = true;

  ASSERT_EQ(measured.wait_for(std::chrono::seconds(30)),
            std::future_status::ready);
  std::vector<MeasureResult> results = measured.get();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].status, MeasureStatus::Ok) << results[0].message;
  EXPECT_FALSE(results[0].withdrawn);
  EXPECT_EQ(results[0].timing.medianUs, 7);
  EXPECT_TRUE(results[1].withdrawn);
  EXPECT_EQ(results[1].key, "sum1");
  EXPECT_EQ(results[1].message, "not measured: the run stopped while it "
                                "waited for workers of cuda:h100-sxm");
  EXPECT_EQ(queryRawInt(db, "SELECT count(*) FROM queue_items"), 0);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "the run stopped while 1 of 2 measurements waited for "
                      "workers of cuda:h100-sxm: they are withdrawn");
}

/// A worker asked to stop (tessel-worker: SIGTERM) finishes and writes the
/// item it holds, claims nothing more, and says why it stopped; the rest
/// of the batch waits for another worker.
TEST_P(QueueMeasurerTest, AWorkerAskedToStopFinishesTheItemItHolds) {
  std::string db = location();
  ASSERT_TRUE(openOrFail(db));
  setenv("FAKE_RUNNER_NAME", "NVIDIA H100 80GB HBM3", 1);
  registerH100Worker(db);
  std::atomic<bool> runStopped = false;
  CreatedMeasurer tuner =
      get(createQueueMeasurer(stoppableH100TunerOptions(db, runStopped)));
  std::shared_ptr<const ReferenceData> data = inputOf(64, 1);
  std::vector<MeasureCandidate> batch = {sumCandidate("sum0", data),
                                         sumCandidate("sum1", data)};
  std::future<std::vector<MeasureResult>> measured =
      enqueueBatch(*tuner.measurer, batch, db);

  WorkerOptions workerOptions = fakeH100WorkerOptions(db);
  // Asked before each claim: the stop comes while the first item is held.
  int asked = 0;
  workerOptions.shouldStop = [&] { return ++asked > 1; };
  llvm::Expected<WorkerSummary> summary = runWorker(workerOptions);
  unsetenv("FAKE_RUNNER_NAME");
  ASSERT_TRUE(bool(summary)) << llvm::toString(summary.takeError());
  EXPECT_TRUE(summary->stopRequested);
  EXPECT_EQ(summary->measured, 1);
  EXPECT_EQ(summary->lost, 0);
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(queryRawInt(db, "SELECT count(*) FROM queue_items WHERE state = "
                            "'claimed'"),
            0);

  runStopped = true;
  ASSERT_EQ(measured.wait_for(std::chrono::seconds(30)),
            std::future_status::ready);
  std::vector<MeasureResult> results = measured.get();
  ASSERT_EQ(results.size(), 2u);
  ASSERT_EQ(results[0].status, MeasureStatus::Ok) << results[0].message;
  EXPECT_EQ(results[0].timing.medianUs, 64);
  EXPECT_TRUE(results[1].withdrawn);
}

} // namespace
