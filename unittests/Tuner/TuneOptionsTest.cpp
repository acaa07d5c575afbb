//===- TuneOptionsTest.cpp - Validation and JSON of TuneOptions -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/TuneOptions.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

std::string verifyError(const TuneOptions &options) {
  llvm::Error error = options.verify();
  return error ? llvm::toString(std::move(error)) : "";
}

TEST(TuneOptionsTest, DefaultsAreValid) {
  EXPECT_EQ(verifyError(TuneOptions()), "");
}

TEST(TuneOptionsTest, ErrorsNameTheOption) {
  TuneOptions options;
  options.trials = 0;
  EXPECT_EQ(verifyError(options), "trials=0 is out of range: at least 1");
  options.trials = 1;
  options.cudaMinTimeMs = 0;
  EXPECT_EQ(verifyError(options), "min-time-ms=0 is out of range: more than 0");
  options = TuneOptions();
  options.taskEquality = "values";
  EXPECT_EQ(verifyError(options), "task-equality=values is not one of: "
                                  "structural, ignore-float-constants");
  options = TuneOptions();
  options.measure = "gpu";
  EXPECT_EQ(verifyError(options),
            "measure=gpu is not cuda, sim:<device>, queue:<db> or "
            "replay:<file>");
  options = TuneOptions();
  options.startSamples = -1;
  EXPECT_EQ(verifyError(options),
            "start-samples=-1 is out of range: at least 0");
  options = TuneOptions();
  options.measure = "replay:";
  EXPECT_EQ(verifyError(options),
            "measure=replay: needs the file of measurements to replay");
  options.measure = "replay:measured.jsonl";
  EXPECT_EQ(verifyError(options), "");
  options.simFidelity = "analytic";
  EXPECT_EQ(verifyError(options),
            "sim-fidelity=analytic needs a sim:<device> measurer");
  options = TuneOptions();
  options.measure = "queue:";
  EXPECT_EQ(verifyError(options),
            "measure=queue: needs the records database of the queue");
  options.measure = "queue:records.db";
  EXPECT_EQ(verifyError(options),
            "measure=queue:<db> needs queue-target=sim:<device> or "
            "cuda:<device>: the device whose workers measure");
  options.queueTarget = "cuda:h100";
  options.simFidelity = "analytic";
  EXPECT_EQ(verifyError(options),
            "sim-fidelity=analytic needs a sim:<device> measurer");
  options.queueTarget = "sim:h100";
  EXPECT_EQ(verifyError(options), "");
  options.measure = "sim:h100";
  EXPECT_EQ(verifyError(options), "queue-target needs measure=queue:<db>");
  options = TuneOptions();
  options.measure = "cuda";
  options.simFidelity = "analytic";
  EXPECT_EQ(verifyError(options),
            "sim-fidelity=analytic needs a sim:<device> measurer");
  options = TuneOptions();
  options.checkCompiles = true;
  EXPECT_EQ(verifyError(options),
            "check-compiles needs sim-fidelity=analytic");
  options.simFidelity = "analytic";
  EXPECT_EQ(verifyError(options), "");
  options = TuneOptions();
  options.scheduler = "fifo";
  EXPECT_EQ(verifyError(options),
            "scheduler=fifo is not one of: gradient, gradient-share, "
            "round-robin");
  options = TuneOptions();
  options.timeLimit = -1;
  EXPECT_EQ(verifyError(options),
            "time-limit=-1 is out of range: at least 0 (0: no limit)");
  options = TuneOptions();
  options.strategy = "evolutionary epsilon-greedy=1.5";
  EXPECT_EQ(verifyError(options), "strategy 'evolutionary': "
                                  "epsilon-greedy=1.5 is out of range: 0 to 1");
}

TEST(TuneOptionsTest, ResolveSpellsOutTheDefaults) {
  TuneOptions options;
  options.strategy = "psa target-size=64";
  ASSERT_FALSE(static_cast<bool>(options.resolve()));
  EXPECT_EQ(options.measuresPerRound, 10);
  EXPECT_EQ(options.features, "pruner");
  EXPECT_NE(options.strategy.find("target-size=64"), std::string::npos);
  EXPECT_NE(options.costModel.find("objective=auto"), std::string::npos);
}

TEST(TuneOptionsTest, JsonRoundTrips) {
  TuneOptions options;
  options.measure = "sim:a100";
  options.simFidelity = "analytic";
  options.simNoise = 0.125;
  options.simTrialSeconds = 1.5;
  options.trials = 77;
  options.measuresPerRound = 9;
  options.timeLimit = 30;
  options.seed = 12345;
  options.scheduler = "round-robin";
  options.strategy = "dgd window=2";
  options.costModel = "random";
  options.features = "af";
  options.resume = true;
  options.jobs = 3;
  options.cudaPath = "/opt/cuda";
  auto back = TuneOptions::fromJSON(llvm::json::Value(options.toJSON()));
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(llvm::json::Value(back->toJSON()),
            llvm::json::Value(options.toJSON()));
  EXPECT_EQ(back->seed, 12345u);
  EXPECT_EQ(back->strategy, "dgd window=2");
  EXPECT_EQ(back->simNoise, 0.125);
}

// The opt-in search-space switches are written only when they leave their
// defaults, so that the options of earlier runs read the same, and round
// trip when set.
TEST(TuneOptionsTest, OptInSwitchesAreWrittenOnlyWhenSet) {
  TuneOptions defaults;
  llvm::json::Object json = defaults.toJSON();
  EXPECT_EQ(json.find("allow_tf32"), json.end());
  EXPECT_EQ(json.find("check_compiles"), json.end());
  EXPECT_EQ(json.find("tensor_cores"), json.end());
  // max_stages is written unless it is 1, the default before double
  // buffering was (session 29): options stored without it read as 1.
  EXPECT_EQ(json.getInteger("max_stages"), 2);
  EXPECT_EQ(json.find("cuda_min_time_ms"), json.end());
  auto earlier = TuneOptions::fromJSON(llvm::json::Object{{"trials", 5}});
  ASSERT_TRUE(static_cast<bool>(earlier))
      << llvm::toString(earlier.takeError());
  EXPECT_EQ(earlier->maxStages, 1);
  // Likewise start_samples (the analytic start, session 36): written unless
  // 0, read as 0 from earlier runs' options, so --rerun repeats them.
  EXPECT_EQ(json.getInteger("start_samples"), 256);
  EXPECT_EQ(earlier->startSamples, 0);
  // A caller's options (Python, C API) keep today's defaults instead.
  auto caller =
      TuneOptions::fromCallerJSON(llvm::json::Object{{"trials", 5}});
  ASSERT_TRUE(static_cast<bool>(caller)) << llvm::toString(caller.takeError());
  EXPECT_EQ(caller->trials, 5);
  EXPECT_EQ(caller->maxStages, 2);
  EXPECT_EQ(caller->startSamples, 256);
  TuneOptions single;
  single.maxStages = 1;
  llvm::json::Object singleJson = single.toJSON();
  EXPECT_EQ(singleJson.find("max_stages"), singleJson.end());
  EXPECT_EQ(json.find("task_equality"), json.end());
  TuneOptions options;
  options.allowTf32 = true;
  options.tensorCores = false;
  options.maxStages = 3;
  options.cudaMinTimeMs = 20;
  options.taskEquality = "ignore-float-constants";
  options.checkCompiles = true;
  options.startSamples = 64;
  json = options.toJSON();
  EXPECT_EQ(json.getBoolean("allow_tf32"), true);
  auto back = TuneOptions::fromJSON(llvm::json::Value(std::move(json)));
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(back->allowTf32);
  EXPECT_FALSE(back->tensorCores);
  EXPECT_EQ(back->maxStages, 3);
  EXPECT_EQ(back->cudaMinTimeMs, 20);
  EXPECT_EQ(back->taskEquality, "ignore-float-constants");
  EXPECT_TRUE(back->checkCompiles);
  EXPECT_EQ(back->startSamples, 64);
  auto wrong = TuneOptions::fromJSON(llvm::json::Object{{"allow_tf32", 1}});
  ASSERT_FALSE(static_cast<bool>(wrong));
  EXPECT_EQ(llvm::toString(wrong.takeError()),
            "tuning options: 'allow_tf32' is not a boolean");
}

TEST(TuneOptionsTest, JsonErrorsNameTheKey) {
  auto unknown = TuneOptions::fromJSON(llvm::json::Object{{"trails", 5}});
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "tuning options: unknown key 'trails'");
  auto wrong = TuneOptions::fromJSON(llvm::json::Object{{"trials", "many"}});
  ASSERT_FALSE(static_cast<bool>(wrong));
  EXPECT_EQ(llvm::toString(wrong.takeError()),
            "tuning options: 'trials' is not an integer");
}

} // namespace
