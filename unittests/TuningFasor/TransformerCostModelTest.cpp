//===- TransformerCostModelTest.cpp - Fasor's Transformer cost model ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/TransformerCostModel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::tessel::fasor;

namespace {

constexpr int64_t kTokens = 5;
constexpr int64_t kWidth = 6;

/// A synthetic target of `count` schedules of 5 tokens of 6 values in
/// [0, 1): the log latency sums a mean over tokens, a term of the first
/// token only (the model must use positions) and a nonlinear term; MS and
/// CS are means of other values.
std::vector<Sample> makeSamples(int64_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(0, 1);
  std::vector<Sample> samples;
  for (int64_t i = 0; i < count; ++i) {
    Sample sample;
    double mean0 = 0, square3 = 0, mean4 = 0, mean5 = 0;
    for (int64_t t = 0; t < kTokens; ++t) {
      std::vector<float> token;
      for (int64_t v = 0; v < kWidth; ++v)
        token.push_back(uniform(rng));
      mean0 += token[0] / kTokens;
      square3 += token[3] * token[3] / kTokens;
      mean4 += token[4] / kTokens;
      mean5 += token[5] / kTokens;
      sample.tokens.push_back(std::move(token));
    }
    double first = sample.tokens[0][1];
    sample.label.latencyUs =
        std::exp(1.0 + 3.0 * mean0 + 2.0 * first + 2.0 * square3);
    sample.label.memoryBound = mean4;
    sample.label.computeBound = 0.5 * (first + mean5);
    samples.push_back(std::move(sample));
  }
  return samples;
}

struct Scores {
  double latency, memoryBound, computeBound;
};

/// R^2 of `model` on `samples`: log latency, MS and CS.
Scores score(const TransformerCostModel &model,
             const std::vector<Sample> &samples) {
  std::vector<Tokens> schedules;
  for (const Sample &sample : samples)
    schedules.push_back(sample.tokens);
  llvm::Expected<std::vector<Prediction>> predictions =
      model.predict(schedules);
  EXPECT_TRUE(static_cast<bool>(predictions))
      << llvm::toString(predictions.takeError());
  if (!predictions)
    return {0, 0, 0};
  std::vector<double> latency[2], memory[2], compute[2];
  for (auto [p, sample] : llvm::zip_equal(*predictions, samples)) {
    latency[0].push_back(std::log(p.latencyUs));
    latency[1].push_back(std::log(sample.label.latencyUs));
    memory[0].push_back(p.memoryBound);
    memory[1].push_back(sample.label.memoryBound);
    compute[0].push_back(p.computeBound);
    compute[1].push_back(sample.label.computeBound);
  }
  return {getRSquared(latency[0], latency[1]),
          getRSquared(memory[0], memory[1]),
          getRSquared(compute[0], compute[1])};
}

/// The paper's network and training (4 layers, hidden 128, 8 heads, AdamW
/// 5e-4, linear decay, batches of 64, 20 epochs) learns the synthetic target:
/// R^2 above 0.9 on held-out schedules for all three outputs, and the
/// training loss falls.
TEST(TransformerCostModelTest, LearnsASyntheticTarget) {
  std::vector<Sample> train = makeSamples(1200, 1);
  std::vector<Sample> test = makeSamples(400, 2);
  llvm::Expected<TransformerCostModel> model =
      TransformerCostModel::create(kWidth, TransformerOptions(), 7);
  ASSERT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  Scores before = score(*model, test);
  llvm::Expected<std::vector<double>> losses = model->train(train);
  ASSERT_TRUE(static_cast<bool>(losses)) << llvm::toString(losses.takeError());
  ASSERT_EQ(losses->size(), 20u);
  EXPECT_LT(losses->back(), 0.25 * losses->front());
  Scores after = score(*model, test);
  EXPECT_GT(after.latency, 0.9) << "before training: " << before.latency;
  EXPECT_GT(after.memoryBound, 0.9) << "before: " << before.memoryBound;
  EXPECT_GT(after.computeBound, 0.9) << "before: " << before.computeBound;
}

/// save() then load() gives the same predictions, bit for bit, and the same
/// network shape.
TEST(TransformerCostModelTest, SaveLoadRoundTrip) {
  std::vector<Sample> samples = makeSamples(128, 3);
  TransformerOptions small;
  small.layers = 2;
  small.hidden = 32;
  small.heads = 4;
  small.maxTokens = 8;
  llvm::Expected<TransformerCostModel> model =
      TransformerCostModel::create(kWidth, small, 5);
  ASSERT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  TrainOptions quick;
  quick.epochs = 2;
  ASSERT_TRUE(static_cast<bool>(model->train(samples, quick)));
  llvm::SmallString<128> path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("fasor-model", "pt", path));
  ASSERT_FALSE(static_cast<bool>(model->save(path)));
  llvm::Expected<TransformerCostModel> loaded =
      TransformerCostModel::load(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(static_cast<bool>(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(loaded->getTokenWidth(), kWidth);
  EXPECT_EQ(loaded->getOptions().layers, 2);
  EXPECT_EQ(loaded->getOptions().hidden, 32);
  EXPECT_EQ(loaded->getOptions().heads, 4);
  EXPECT_EQ(loaded->getOptions().maxTokens, 8);
  std::vector<Tokens> schedules;
  for (const Sample &sample : samples)
    schedules.push_back(sample.tokens);
  llvm::Expected<std::vector<Prediction>> expected = model->predict(schedules);
  llvm::Expected<std::vector<Prediction>> actual = loaded->predict(schedules);
  ASSERT_TRUE(static_cast<bool>(expected) && static_cast<bool>(actual));
  ASSERT_EQ(expected->size(), actual->size());
  for (auto [e, a] : llvm::zip_equal(*expected, *actual)) {
    EXPECT_EQ(e.latencyUs, a.latencyUs);
    EXPECT_EQ(e.memoryBound, a.memoryBound);
    EXPECT_EQ(e.computeBound, a.computeBound);
  }
}

/// Bad input is an error that says what is wrong, never a crash.
TEST(TransformerCostModelTest, Errors) {
  llvm::Expected<TransformerCostModel> model =
      TransformerCostModel::create(kWidth);
  ASSERT_TRUE(static_cast<bool>(model));
  Tokens narrow = {{0.5f, 0.5f}};
  llvm::Expected<std::vector<Prediction>> predictions =
      model->predict({narrow});
  ASSERT_FALSE(static_cast<bool>(predictions));
  EXPECT_EQ(llvm::toString(predictions.takeError()),
            "fasor: a token has 2 values; the model's tokens have 6");
  Sample zero{makeSamples(1, 4).front().tokens, {0, 0.5, 0.5}};
  llvm::Expected<std::vector<double>> losses = model->train({zero});
  ASSERT_FALSE(static_cast<bool>(losses));
  EXPECT_EQ(llvm::toString(losses.takeError()),
            "fasor: a sample has latency 0.00 us; latencies must be positive");
  TransformerOptions odd;
  odd.heads = 3;
  llvm::Expected<TransformerCostModel> bad =
      TransformerCostModel::create(kWidth, odd);
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "fasor: hidden (128) must be a multiple of heads (3)");
  llvm::Expected<TransformerCostModel> missing =
      TransformerCostModel::load("/nonexistent/fasor.pt");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_TRUE(llvm::StringRef(llvm::toString(missing.takeError()))
                  .starts_with("fasor: loading the model from "
                               "/nonexistent/fasor.pt: "));
}

} // namespace
