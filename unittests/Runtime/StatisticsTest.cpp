//===- StatisticsTest.cpp - Tests of timing statistics --------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Statistics.h"

#include "gtest/gtest.h"

using namespace tessel::runtime;

namespace {

TEST(StatisticsTest, EmptyIsAllZero) {
  TimingStats stats = TimingStats::fromSamples({});
  EXPECT_EQ(stats.repeats, 0);
  EXPECT_EQ(stats.medianUs, 0);
  EXPECT_EQ(stats.stddevUs, 0);
}

TEST(StatisticsTest, OneSampleHasNoSpread) {
  TimingStats stats = TimingStats::fromSamples({7.5});
  EXPECT_EQ(stats.repeats, 1);
  EXPECT_EQ(stats.medianUs, 7.5);
  EXPECT_EQ(stats.minUs, 7.5);
  EXPECT_EQ(stats.maxUs, 7.5);
  EXPECT_EQ(stats.stddevUs, 0);
}

TEST(StatisticsTest, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(TimingStats::fromSamples({5, 1, 3}).medianUs, 3);
  EXPECT_EQ(TimingStats::fromSamples({4, 1, 3, 100}).medianUs, 3.5);
}

TEST(StatisticsTest, MinMaxAndSampleStddev) {
  TimingStats stats = TimingStats::fromSamples({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(stats.repeats, 8);
  EXPECT_EQ(stats.minUs, 2);
  EXPECT_EQ(stats.maxUs, 9);
  EXPECT_EQ(stats.medianUs, 4.5);
  // Mean 5, sum of squares 32, n - 1 = 7.
  EXPECT_NEAR(stats.stddevUs, 2.1380899352993947, 1e-12);
}

TEST(StatisticsTest, JSONHasTheProtocolFields) {
  TimingStats stats = TimingStats::fromSamples({1, 2, 3});
  EXPECT_EQ(stats.toJSON(), "{\"median_us\":2,\"min_us\":1,\"max_us\":3,"
                            "\"stddev_us\":1,\"repeats\":3}");
}

} // namespace
