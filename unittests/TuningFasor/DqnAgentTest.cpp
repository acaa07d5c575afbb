//===- DqnAgentTest.cpp - Fasor's deep Q-network explorer -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/DqnAgent.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace mlir::tessel::fasor;

namespace {

/// A chain of 5 states; "right" moves towards state 4, which ends the
/// episode with reward 1, "left" moves back (not below 0). With gamma
/// 0.95 the optimal values are Q(s, right) = 0.95^(3 - s).
constexpr int kStates = 5;
const Features kLeft = {1, 0}, kRight = {0, 1};

Features oneHot(int state) {
  Features features(kStates, 0);
  features[state] = 1;
  return features;
}

DqnAgent trainOnChain(uint64_t seed) {
  DqnOptions options;
  options.hidden = 32;
  options.epsilon = 0.3;
  options.batchSize = 16;
  options.targetSyncSteps = 20;
  options.seed = seed;
  llvm::Expected<DqnAgent> agent = DqnAgent::create(kStates, 2, options);
  EXPECT_TRUE(static_cast<bool>(agent)) << llvm::toString(agent.takeError());
  for (int episode = 0; episode < 150; ++episode) {
    int state = 0;
    for (int step = 0; step < 20; ++step) {
      llvm::Expected<size_t> chosen =
          agent->selectAction(oneHot(state), {kLeft, kRight}, /*explore=*/true);
      EXPECT_TRUE(static_cast<bool>(chosen));
      int next = *chosen == 1 ? state + 1 : std::max(0, state - 1);
      bool done = next == kStates - 1;
      Transition t{oneHot(state), *chosen == 1 ? kRight : kLeft,
                   done ? 1.0 : 0.0, oneHot(next),
                   done ? std::vector<Features>()
                        : std::vector<Features>{kLeft, kRight}};
      EXPECT_FALSE(static_cast<bool>(agent->remember(std::move(t))));
      llvm::Expected<std::optional<double>> loss = agent->trainStep();
      EXPECT_TRUE(static_cast<bool>(loss));
      state = next;
      if (done)
        break;
    }
  }
  return std::move(*agent);
}

/// The agent learns to walk right, with values near the discounted reward,
/// and the greedy choice is "right" everywhere.
TEST(DqnAgentTest, LearnsAChain) {
  DqnAgent agent = trainOnChain(3);
  for (int state = 0; state < kStates - 1; ++state) {
    llvm::Expected<std::vector<double>> q =
        agent.getQValues(oneHot(state), {kLeft, kRight});
    ASSERT_TRUE(static_cast<bool>(q)) << llvm::toString(q.takeError());
    EXPECT_GT((*q)[1], (*q)[0]) << "state " << state;
    double optimal = 1.0;
    for (int s = state; s < kStates - 2; ++s)
      optimal *= 0.95;
    EXPECT_NEAR((*q)[1], optimal, 0.15) << "state " << state;
    llvm::Expected<size_t> greedy =
        agent.selectAction(oneHot(state), {kLeft, kRight}, /*explore=*/false);
    ASSERT_TRUE(static_cast<bool>(greedy));
    EXPECT_EQ(*greedy, 1u);
  }
}

/// save() and load() keep the network: the same Q-values.
TEST(DqnAgentTest, SaveLoad) {
  DqnAgent agent = trainOnChain(4);
  llvm::SmallString<64> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("dqn", "pt", path));
  ASSERT_FALSE(static_cast<bool>(agent.save(path)));
  llvm::Expected<DqnAgent> loaded = DqnAgent::load(path);
  ASSERT_TRUE(static_cast<bool>(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(loaded->getStateWidth(), kStates);
  EXPECT_EQ(loaded->getActionWidth(), 2);
  EXPECT_EQ(loaded->getOptions().hidden, 32);
  EXPECT_EQ(loaded->getOptions().gamma, 0.95);
  for (int state = 0; state < kStates; ++state) {
    auto before = agent.getQValues(oneHot(state), {kLeft, kRight});
    auto after = loaded->getQValues(oneHot(state), {kLeft, kRight});
    ASSERT_TRUE(before && after);
    EXPECT_EQ(*before, *after);
  }
  llvm::sys::fs::remove(path);
  auto missing = DqnAgent::load("/nonexistent/dqn.pt");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(llvm::toString(missing.takeError())
                .find("fasor dqn: loading the agent from /nonexistent/dqn.pt"),
            std::string::npos);
}

TEST(DqnAgentTest, Errors) {
  auto bad = DqnAgent::create(0, 2);
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "fasor dqn: state width, action width and hidden units must be "
            "positive");
  DqnOptions options;
  options.gamma = 1;
  auto badGamma = DqnAgent::create(3, 2, options);
  ASSERT_FALSE(static_cast<bool>(badGamma));
  EXPECT_EQ(llvm::toString(badGamma.takeError()),
            "fasor dqn: gamma must be in [0, 1) and epsilon in [0, 1]");
  llvm::Expected<DqnAgent> agent = DqnAgent::create(3, 2);
  ASSERT_TRUE(static_cast<bool>(agent));
  auto wrongState = agent->getQValues({1, 0}, {kLeft});
  ASSERT_FALSE(static_cast<bool>(wrongState));
  EXPECT_EQ(llvm::toString(wrongState.takeError()),
            "fasor dqn: a state has 2 features, not 3");
  auto wrongAction = agent->remember({{1, 0, 0}, {1}, 0, {1, 0, 0}, {}});
  EXPECT_EQ(llvm::toString(std::move(wrongAction)),
            "fasor dqn: an action has 1 features, not 2");
  auto none = agent->selectAction({1, 0, 0}, {}, false);
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_EQ(llvm::toString(none.takeError()), "fasor dqn: no action to select");
  // Too few transitions for a batch: no step yet.
  llvm::Expected<std::optional<double>> loss = agent->trainStep();
  ASSERT_TRUE(static_cast<bool>(loss));
  EXPECT_FALSE(loss->has_value());
}

} // namespace
