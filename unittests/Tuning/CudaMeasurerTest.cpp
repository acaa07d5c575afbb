//===- CudaMeasurerTest.cpp - Child-process isolation of measurements -----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// CudaMeasurer against a fake runner (FakeCudaRunner.cpp): a faulting and a
// hanging candidate are recorded and the candidates after them are still
// measured.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/CudaMeasurer.h"
#include "tessel/Tuning/Measure/LaunchPlan.h"

#include "gtest/gtest.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tessel;

namespace {

std::shared_ptr<const LaunchPlan> makePlan() {
  auto plan = std::make_shared<LaunchPlan>();
  plan->binaries["kernels"] = "not a real cubin";
  PlanBuffer buffer;
  buffer.bytes = 64;
  plan->buffers.push_back(buffer);
  PlanStep step;
  step.launch = PlanLaunch();
  step.launch->module = "kernels";
  step.launch->kernel = "k";
  PlanParam pointer;
  pointer.kind = PlanParam::Kind::Pointer;
  pointer.buffer = 0;
  step.launch->params.push_back(pointer);
  plan->steps.push_back(step);
  return plan;
}

CudaMeasurerOptions fakeOptions() {
  CudaMeasurerOptions options;
  options.runnerPath = TESSEL_FAKE_RUNNER;
  options.timeoutSeconds = 1.0;
  return options;
}

MeasureCandidate candidate(std::string key) {
  MeasureCandidate c;
  c.key = std::move(key);
  c.plan = makePlan();
  return c;
}

TEST(CudaMeasurerTest, FaultsAndHangsAreIsolated) {
  auto measurer = CudaMeasurer::create(fakeOptions());
  ASSERT_TRUE(static_cast<bool>(measurer)) << llvm::toString(measurer.takeError());
  EXPECT_EQ((*measurer)->name(), "cuda:Fake GPU");
  EXPECT_FALSE((*measurer)->isSimulated());

  std::vector<MeasureCandidate> batch = {
      candidate("ok0"),    candidate("fault1"), candidate("ok2"),
      candidate("hang3"),  candidate("ok4"),    candidate("sticky5"),
      candidate("ok6"),    candidate("wrong7"), candidate("oor8")};
  auto begin = std::chrono::steady_clock::now();
  std::vector<MeasureResult> results = (*measurer)->measure(batch);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - begin)
                       .count();
  ASSERT_EQ(results.size(), batch.size());
  const MeasureStatus expected[] = {
      MeasureStatus::Ok,          MeasureStatus::LaunchError,
      MeasureStatus::Ok,          MeasureStatus::Timeout,
      MeasureStatus::Ok,          MeasureStatus::LaunchError,
      MeasureStatus::Ok,          MeasureStatus::WrongResult,
      MeasureStatus::OutOfResources};
  for (size_t i = 0; i < batch.size(); ++i) {
    EXPECT_EQ(results[i].key, batch[i].key);
    EXPECT_EQ(stringifyMeasureStatus(results[i].status),
              stringifyMeasureStatus(expected[i]))
        << batch[i].key << ": " << results[i].message;
    EXPECT_FALSE(results[i].simulated);
    EXPECT_EQ(results[i].device, "cuda:Fake GPU");
  }
  // Timings of the ok candidates come from the runner that measured them,
  // whichever restart it was.
  EXPECT_DOUBLE_EQ(results[0].timing.medianUs, 10.0);
  EXPECT_DOUBLE_EQ(results[2].timing.medianUs, 12.0);
  EXPECT_DOUBLE_EQ(results[4].timing.medianUs, 14.0);
  EXPECT_DOUBLE_EQ(results[6].timing.medianUs, 16.0);
  EXPECT_EQ(results[6].timing.repeats, 100);
  EXPECT_NE(results[1].message.find("killed by signal 11"), std::string::npos)
      << results[1].message;
  EXPECT_NE(results[3].message.find("no answer within 1 s"), std::string::npos)
      << results[3].message;
  EXPECT_EQ(results[5].message, "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(results[7].message, "element 3: got 1, expected 2");
  // Only the hang waits for the timeout.
  EXPECT_LT(seconds, 5.0);
}

TEST(CudaMeasurerTest, NoDeviceIsOneClearLine) {
  setenv("FAKE_RUNNER_NO_DEVICE", "1", 1);
  auto measurer = CudaMeasurer::create(fakeOptions());
  unsetenv("FAKE_RUNNER_NO_DEVICE");
  ASSERT_FALSE(static_cast<bool>(measurer));
  EXPECT_EQ(llvm::toString(measurer.takeError()),
            "no CUDA driver/device found: fake runner without a GPU");
}

TEST(CudaMeasurerTest, MissingRunnerIsReported) {
  CudaMeasurerOptions options = fakeOptions();
  options.runnerPath = "/nonexistent/tessel-cuda-runner";
  auto measurer = CudaMeasurer::create(options);
  ASSERT_FALSE(static_cast<bool>(measurer));
  EXPECT_EQ(llvm::toString(measurer.takeError()),
            "cannot run the CUDA runner '/nonexistent/tessel-cuda-runner'");
}

TEST(CudaMeasurerTest, CandidateWithoutPlanIsALaunchError) {
  auto measurer = CudaMeasurer::create(fakeOptions());
  ASSERT_TRUE(static_cast<bool>(measurer)) << llvm::toString(measurer.takeError());
  MeasureCandidate bare;
  bare.key = "bare";
  std::vector<MeasureResult> results = (*measurer)->measure(bare);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, MeasureStatus::LaunchError);
  EXPECT_EQ(results[0].message, "candidate 'bare' has no compiled plan");
}

} // namespace

/// Found on an H100 (2026-11-26): a queue worker decodes every item into new
/// buffers, and a freed buffer's address comes back holding other data. Data
/// files were cached by address, so later items ran on an earlier item's
/// data (wrong results) or a file of the wrong size. They are cached by
/// content now: each batch below reuses one buffer's address with new bytes.
TEST(CudaMeasurerTest, DataFilesFollowContentNotAddress) {
  auto measurer = CudaMeasurer::create(fakeOptions());
  ASSERT_TRUE(static_cast<bool>(measurer))
      << llvm::toString(measurer.takeError());
  auto plan = std::make_shared<LaunchPlan>(*makePlan());
  PlanBuffer &constant = plan->buffers.emplace_back();
  constant.kind = PlanBuffer::Kind::Constant;
  constant.data.reserve(64);
  const uint8_t *address = nullptr;
  auto measureWith = [&](size_t bytes, uint8_t value) {
    constant.data.assign(bytes, value);
    constant.bytes = static_cast<int64_t>(bytes);
    if (!address)
      address = constant.data.data();
    EXPECT_EQ(constant.data.data(), address);
    MeasureCandidate c;
    c.key = "sum";
    c.plan = plan;
    std::vector<MeasureResult> results = (*measurer)->measure(c);
    EXPECT_EQ(results.size(), 1u);
    return results.empty() ? MeasureResult() : results[0];
  };
  struct Step {
    size_t bytes;
    uint8_t value;
    double sum;
  };
  const Step steps[] = {
      {16, 1, 16.0},
      // Same address and size, other bytes.
      {16, 2, 32.0},
      // Same address, other size.
      {32, 3, 96.0},
      // The first bytes again: its file is reused and still right.
      {16, 1, 16.0},
  };
  for (const Step &step : steps) {
    MeasureResult result = measureWith(step.bytes, step.value);
    ASSERT_EQ(result.status, MeasureStatus::Ok) << result.message;
    EXPECT_DOUBLE_EQ(result.timing.medianUs, step.sum);
  }
}

/// Stop requests are the tuner's or worker's: a runner that gets SIGTERM
/// and SIGINT (Slurm signals every process of a job step) measures on.
TEST(CudaMeasurerTest, StopSignalsAreLeftToTheMeasurer) {
  auto measurer = CudaMeasurer::create(fakeOptions());
  ASSERT_TRUE(static_cast<bool>(measurer))
      << llvm::toString(measurer.takeError());
  std::vector<MeasureCandidate> batch = {candidate("ok0"), candidate("stop1"),
                                         candidate("ok2")};
  std::vector<MeasureResult> results = (*measurer)->measure(batch);
  ASSERT_EQ(results.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(results[i].status, MeasureStatus::Ok)
        << batch[i].key << ": " << results[i].message;
    EXPECT_DOUBLE_EQ(results[i].timing.medianUs, 10.0 + i);
  }
}

/// Whether process `pid` is gone (or a zombie waiting for init to reap it).
static bool isGone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pidField, name, state;
  if (!(stat >> pidField >> name >> state))
    return true;
  return state == "Z" || state == "X";
}

/// A tuner or worker killed while its runner sits in a hung kernel takes
/// the runner with it: nothing holds the GPU afterwards.
TEST(CudaMeasurerTest, ARunnerDiesWithItsMeasurer) {
  std::string pidFile =
      ::testing::TempDir() + "runner-pid-" + std::to_string(getpid());
  std::remove(pidFile.c_str());
  setenv("FAKE_RUNNER_PID_FILE", pidFile.c_str(), 1);
  pid_t tuner = fork();
  ASSERT_GE(tuner, 0);
  if (tuner == 0) {
    CudaMeasurerOptions options = fakeOptions();
    options.timeoutSeconds = 600;
    auto measurer = CudaMeasurer::create(options);
    if (measurer)
      (*measurer)->measure(candidate("hang0"));
    _exit(1);
  }
  unsetenv("FAKE_RUNNER_PID_FILE");
  pid_t runner = 0;
  for (int i = 0; i < 1000 && runner <= 0; ++i) {
    std::ifstream(pidFile) >> runner;
    if (runner <= 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(tuner, SIGKILL);
  waitpid(tuner, nullptr, 0);
  ASSERT_GT(runner, 0) << "the fake runner never wrote " << pidFile;
  bool gone = false;
  for (int i = 0; i < 500 && !gone; ++i) {
    gone = isGone(runner);
    if (!gone)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!gone)
    kill(runner, SIGKILL);
  EXPECT_TRUE(gone) << "the runner outlived its killed measurer";
  std::remove(pidFile.c_str());
}
