//===- IsolatedJobsTest.cpp - Jobs in child processes with limits ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/IsolatedJobs.h"

#include "gtest/gtest.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <unistd.h>
#include <vector>

using namespace mlir::tessel;

namespace {

TEST(IsolatedJobsTest, OutputsComeBackInOrder) {
  std::vector<JobOutcome> outcomes = runIsolatedJobs(
      5, [](size_t i) { return "job " + std::to_string(i) + "\nline 2"; },
      /*parallel=*/3, JobLimits{});
  ASSERT_EQ(outcomes.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_TRUE(outcomes[i].finished) << outcomes[i].failure;
    EXPECT_EQ(outcomes[i].output, "job " + std::to_string(i) + "\nline 2");
  }
}

TEST(IsolatedJobsTest, LargeOutputsArriveWhole) {
  std::vector<JobOutcome> outcomes = runIsolatedJobs(
      2, [](size_t i) { return std::string(3 << 20, 'a' + i); }, 2,
      JobLimits{});
  ASSERT_TRUE(outcomes[0].finished && outcomes[1].finished);
  EXPECT_EQ(outcomes[0].output, std::string(3 << 20, 'a'));
  EXPECT_EQ(outcomes[1].output, std::string(3 << 20, 'b'));
}

TEST(IsolatedJobsTest, WhatJobsChangeStaysInTheirChildren) {
  // One worker runs the three jobs in turn: they see each other's changes;
  // the caller does not.
  int counter = 0;
  std::vector<JobOutcome> outcomes = runIsolatedJobs(
      3, [&](size_t) { return std::to_string(++counter); }, 1, JobLimits{});
  EXPECT_EQ(outcomes[0].output, "1");
  EXPECT_EQ(outcomes[1].output, "2");
  EXPECT_EQ(outcomes[2].output, "3");
  EXPECT_EQ(counter, 0);
}

TEST(IsolatedJobsTest, TheJobsAfterACrashRunInANewWorker) {
  std::vector<JobOutcome> outcomes = runIsolatedJobs(
      4,
      [](size_t i) -> std::string {
        if (i == 1)
          abort();
        return "job " + std::to_string(i);
      },
      1, JobLimits{});
  EXPECT_EQ(outcomes[0].output, "job 0");
  EXPECT_FALSE(outcomes[1].finished);
  EXPECT_EQ(outcomes[1].failure, "crashed (signal 6, Aborted)");
  EXPECT_EQ(outcomes[2].output, "job 2");
  EXPECT_EQ(outcomes[3].output, "job 3");
}

TEST(IsolatedJobsTest, AJobThatAllocatesWithoutBoundRunsOutOfMemory) {
  JobLimits limits;
  limits.memoryMiB = 256;
  std::vector<JobOutcome> outcomes = runIsolatedJobs(
      2,
      [](size_t i) -> std::string {
        if (i == 1)
          return "fine";
        // As LLVM does when an allocation fails.
        std::vector<char *> blocks;
        for (;;) {
          char *block = static_cast<char *>(malloc(16 << 20));
          if (!block) {
            fprintf(stderr, "LLVM ERROR: out of memory\nAllocation failed\n");
            abort();
          }
          blocks.push_back(block);
          for (size_t b = 0; b < (16u << 20); b += 4096)
            block[b] = 1;
        }
      },
      2, limits);
  EXPECT_FALSE(outcomes[0].finished);
  EXPECT_EQ(outcomes[0].failure, "ran out of memory (limit 256 MiB)");
  EXPECT_TRUE(outcomes[1].finished);
  EXPECT_EQ(outcomes[1].output, "fine");
}

TEST(IsolatedJobsTest, AJobThatHangsIsKilledAtTheTimeLimit) {
  JobLimits limits;
  limits.timeoutSeconds = 0.5;
  std::vector<JobOutcome> outcomes = runIsolatedJobs(
      2,
      [](size_t i) -> std::string {
        if (i == 0)
          for (;;)
            pause();
        return "quick";
      },
      2, limits);
  EXPECT_FALSE(outcomes[0].finished);
  EXPECT_EQ(outcomes[0].failure, "took longer than 0.5 s (killed)");
  EXPECT_EQ(outcomes[1].output, "quick");
}

TEST(IsolatedJobsTest, ACrashNamesTheSignalAndTheLastMessage) {
  std::vector<JobOutcome> outcomes = runIsolatedJobs(
      1,
      [](size_t) -> std::string {
        fprintf(stderr, "note: something\nerror: the pass failed\n");
        fflush(stderr);
        raise(SIGSEGV);
        return "";
      },
      1, JobLimits{});
  EXPECT_FALSE(outcomes[0].finished);
  EXPECT_EQ(outcomes[0].failure,
            "crashed (signal 11, Segmentation fault): error: the pass failed");
}

} // namespace
