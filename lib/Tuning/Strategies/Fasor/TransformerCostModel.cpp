//===- TransformerCostModel.cpp - Fasor's transferable cost model ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// libtorch reports errors by throwing; this file is compiled with exceptions
// and every public entry point turns them into llvm::Error.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/TransformerCostModel.h"

#include "llvm/Support/FormatVariadic.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

using namespace mlir::tessel::fasor;

namespace {

/// The encoder and its input projection, position embedding and head.
struct NetworkImpl : torch::nn::Module {
  NetworkImpl(int64_t tokenWidth, const TransformerOptions &options)
      : input(register_module("input",
                              torch::nn::Linear(tokenWidth, options.hidden))),
        encoder(register_module(
            "encoder",
            torch::nn::TransformerEncoder(torch::nn::TransformerEncoderOptions(
                torch::nn::TransformerEncoderLayerOptions(options.hidden,
                                                          options.heads)
                    .dim_feedforward(4 * options.hidden)
                    .dropout(options.dropout),
                options.layers)))),
        head(register_module(
            "head", torch::nn::Sequential(
                        torch::nn::Linear(options.hidden, options.hidden),
                        torch::nn::ReLU(),
                        torch::nn::Linear(options.hidden, 3)))) {
    position = register_parameter(
        "position",
        torch::randn({options.maxTokens, options.hidden}) * 0.02);
    latencyMean = register_buffer("latency_mean", torch::zeros({}));
    latencyStd = register_buffer("latency_std", torch::ones({}));
  }

  /// `tokens`: [batch, sequence, width]; `padding`: [batch, sequence], true
  /// where a schedule has no token. Returns [batch, 3].
  torch::Tensor forward(const torch::Tensor &tokens,
                        const torch::Tensor &padding) {
    int64_t sequence = tokens.size(1);
    torch::Tensor x = input(tokens) + position.slice(0, 0, sequence);
    // The C++ encoder takes [sequence, batch, hidden].
    x = encoder->forward(x.transpose(0, 1), /*src_mask=*/torch::Tensor(),
                         /*src_key_padding_mask=*/padding)
            .transpose(0, 1);
    torch::Tensor keep = padding.logical_not().unsqueeze(-1).to(torch::kFloat);
    torch::Tensor pooled = (x * keep).sum(1) / keep.sum(1).clamp_min(1);
    return head->forward(pooled);
  }

  torch::nn::Linear input;
  torch::nn::TransformerEncoder encoder;
  torch::nn::Sequential head;
  torch::Tensor position, latencyMean, latencyStd;
};
TORCH_MODULE(Network);

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

struct TransformerCostModel::Impl {
  int64_t tokenWidth = 0;
  TransformerOptions options;
  Network network{nullptr};
};

TransformerCostModel::TransformerCostModel(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
TransformerCostModel::TransformerCostModel(TransformerCostModel &&) = default;
TransformerCostModel &
TransformerCostModel::operator=(TransformerCostModel &&) = default;
TransformerCostModel::~TransformerCostModel() = default;

int64_t TransformerCostModel::getTokenWidth() const {
  return impl->tokenWidth;
}

const TransformerOptions &TransformerCostModel::getOptions() const {
  return impl->options;
}

static llvm::Error checkOptions(int64_t tokenWidth,
                                const TransformerOptions &options) {
  if (tokenWidth <= 0)
    return makeError(llvm::formatv("fasor: the token width must be positive, "
                                   "not {0}",
                                   tokenWidth));
  if (options.layers <= 0 || options.hidden <= 0 || options.heads <= 0 ||
      options.maxTokens <= 0)
    return makeError("fasor: layers, hidden, heads and max tokens must be "
                     "positive");
  if (options.hidden % options.heads != 0)
    return makeError(llvm::formatv("fasor: hidden ({0}) must be a multiple of "
                                   "heads ({1})",
                                   options.hidden, options.heads));
  if (options.dropout < 0 || options.dropout >= 1)
    return makeError("fasor: dropout must be in [0, 1)");
  return llvm::Error::success();
}

llvm::Expected<TransformerCostModel>
TransformerCostModel::create(int64_t tokenWidth,
                             const TransformerOptions &options,
                             uint64_t seed) {
  if (llvm::Error error = checkOptions(tokenWidth, options))
    return std::move(error);
  try {
    torch::manual_seed(seed);
    auto impl = std::make_unique<Impl>();
    impl->tokenWidth = tokenWidth;
    impl->options = options;
    impl->network = Network(tokenWidth, options);
    return TransformerCostModel(std::move(impl));
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor: creating the model: ") + e.what());
  }
}

/// The batch of `schedules` at `indices` as a [batch, sequence, width]
/// tensor and its padding mask; fails on a token of the wrong width or a
/// schedule with no token or more than `maxTokens`.
static llvm::Error
makeBatch(llvm::ArrayRef<const Tokens *> schedules, int64_t width,
          int64_t maxTokens, torch::Tensor &tokens, torch::Tensor &padding) {
  int64_t sequence = 0;
  for (const Tokens *schedule : schedules) {
    if (schedule->empty() || int64_t(schedule->size()) > maxTokens)
      return makeError(llvm::formatv("fasor: a schedule has {0} tokens; the "
                                     "model takes 1 to {1}",
                                     schedule->size(), maxTokens));
    sequence = std::max<int64_t>(sequence, schedule->size());
  }
  int64_t batch = schedules.size();
  tokens = torch::zeros({batch, sequence, width});
  padding = torch::ones({batch, sequence}, torch::kBool);
  auto values = tokens.accessor<float, 3>();
  auto pad = padding.accessor<bool, 2>();
  for (int64_t b = 0; b < batch; ++b) {
    const Tokens &schedule = *schedules[b];
    for (int64_t t = 0, e = schedule.size(); t < e; ++t) {
      if (int64_t(schedule[t].size()) != width)
        return makeError(llvm::formatv("fasor: a token has {0} values; the "
                                       "model's tokens have {1}",
                                       schedule[t].size(), width));
      for (int64_t v = 0; v < width; ++v)
        values[b][t][v] = schedule[t][v];
      pad[b][t] = false;
    }
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<double>>
TransformerCostModel::train(llvm::ArrayRef<Sample> samples,
                            const TrainOptions &options) {
  if (samples.empty())
    return makeError("fasor: no training samples");
  if (options.batchSize <= 0 || options.epochs <= 0)
    return makeError("fasor: batch size and epochs must be positive");
  for (const Sample &sample : samples)
    if (!(sample.label.latencyUs > 0))
      return makeError(llvm::formatv("fasor: a sample has latency {0} us; "
                                     "latencies must be positive",
                                     sample.label.latencyUs));
  try {
    torch::manual_seed(options.seed);
    Network &network = impl->network;
    // Standardized log latency: statistics of the training set.
    std::vector<double> logs;
    for (const Sample &sample : samples)
      logs.push_back(std::log(sample.label.latencyUs));
    double mean = 0, variance = 0;
    for (double value : logs)
      mean += value / logs.size();
    for (double value : logs)
      variance += (value - mean) * (value - mean) / logs.size();
    double deviation = std::max(std::sqrt(variance), 1e-6);
    if (options.keepLatencyScale) {
      mean = network->latencyMean.item<double>();
      deviation = network->latencyStd.item<double>();
    } else {
      network->latencyMean.fill_(mean);
      network->latencyStd.fill_(deviation);
    }
    torch::Tensor targets = torch::empty({int64_t(samples.size()), 3});
    auto target = targets.accessor<float, 2>();
    for (auto [index, sample] : llvm::enumerate(samples)) {
      target[index][0] = (logs[index] - mean) / deviation;
      target[index][1] = sample.label.memoryBound;
      target[index][2] = sample.label.computeBound;
    }

    torch::optim::AdamW optimizer(
        network->parameters(),
        torch::optim::AdamWOptions(options.learningRate)
            .betas({options.beta1, options.beta2})
            .weight_decay(options.weightDecay));
    int64_t count = samples.size();
    int64_t batches = (count + options.batchSize - 1) / options.batchSize;
    int64_t steps = batches * options.epochs, step = 0;
    std::vector<double> losses;
    network->train();
    for (int64_t epoch = 0; epoch < options.epochs; ++epoch) {
      torch::Tensor order = torch::randperm(count, torch::kLong);
      auto at = order.accessor<int64_t, 1>();
      double total = 0;
      for (int64_t first = 0; first < count; first += options.batchSize) {
        int64_t last = std::min(count, first + options.batchSize);
        std::vector<const Tokens *> schedules;
        std::vector<int64_t> rows;
        for (int64_t i = first; i < last; ++i) {
          schedules.push_back(&samples[at[i]].tokens);
          rows.push_back(at[i]);
        }
        torch::Tensor tokens, padding;
        if (llvm::Error error =
                makeBatch(schedules, impl->tokenWidth,
                          impl->options.maxTokens, tokens, padding))
          return std::move(error);
        // Linear decay of the learning rate to 0 over all steps.
        double rate = options.learningRate *
                      (1.0 - static_cast<double>(step) / steps);
        for (auto &group : optimizer.param_groups())
          static_cast<torch::optim::AdamWOptions &>(group.options()).lr(rate);
        torch::Tensor batchTargets = targets.index_select(
            0, torch::tensor(rows, torch::kLong));
        torch::Tensor loss = torch::mse_loss(
            network->forward(tokens, padding), batchTargets);
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
        total += loss.item<double>() * (last - first);
        ++step;
      }
      losses.push_back(total / count);
    }
    network->eval();
    return losses;
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor: training: ") + e.what());
  }
}

llvm::Expected<std::vector<Prediction>>
TransformerCostModel::predict(llvm::ArrayRef<Tokens> schedules) const {
  std::vector<Prediction> predictions;
  if (schedules.empty())
    return predictions;
  try {
    torch::NoGradGuard noGrad;
    Network &network = impl->network;
    network->eval();
    std::vector<const Tokens *> pointers;
    for (const Tokens &schedule : schedules)
      pointers.push_back(&schedule);
    torch::Tensor tokens, padding;
    if (llvm::Error error = makeBatch(pointers, impl->tokenWidth,
                                      impl->options.maxTokens, tokens,
                                      padding))
      return std::move(error);
    torch::Tensor outputs = network->forward(tokens, padding);
    auto values = outputs.accessor<float, 2>();
    double mean = network->latencyMean.item<double>();
    double deviation = network->latencyStd.item<double>();
    for (int64_t i = 0, e = schedules.size(); i < e; ++i)
      predictions.push_back(
          {std::exp(values[i][0] * deviation + mean),
           std::clamp<double>(values[i][1], 0, 1),
           std::clamp<double>(values[i][2], 0, 1)});
    return predictions;
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor: predicting: ") + e.what());
  }
}

// The archive holds the network's parameters and buffers under their module
// names and the shape of the model under "tessel.*".
llvm::Error TransformerCostModel::save(llvm::StringRef path) const {
  try {
    torch::serialize::OutputArchive archive;
    impl->network->save(archive);
    const TransformerOptions &o = impl->options;
    archive.write("tessel.token_width", torch::tensor(impl->tokenWidth));
    archive.write("tessel.shape",
                  torch::tensor({o.layers, o.hidden, o.heads, o.maxTokens}));
    archive.write("tessel.dropout", torch::tensor(o.dropout));
    archive.save_to(path.str());
    return llvm::Error::success();
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor: saving the model to ") + path +
                     ": " + e.what());
  }
}

llvm::Expected<TransformerCostModel>
TransformerCostModel::load(llvm::StringRef path) {
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(path.str());
    torch::Tensor width, shape, dropout;
    archive.read("tessel.token_width", width);
    archive.read("tessel.shape", shape);
    archive.read("tessel.dropout", dropout);
    TransformerOptions options;
    options.layers = shape[0].item<int64_t>();
    options.hidden = shape[1].item<int64_t>();
    options.heads = shape[2].item<int64_t>();
    options.maxTokens = shape[3].item<int64_t>();
    options.dropout = dropout.item<double>();
    llvm::Expected<TransformerCostModel> model =
        create(width.item<int64_t>(), options);
    if (!model)
      return model.takeError();
    model->impl->network->load(archive);
    model->impl->network->eval();
    return model;
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor: loading the model from ") + path +
                     ": " + e.what());
  }
}

double mlir::tessel::fasor::getRSquared(llvm::ArrayRef<double> predicted,
                                         llvm::ArrayRef<double> actual) {
  double mean = 0;
  for (double value : actual)
    mean += value / actual.size();
  double residual = 0, spread = 0;
  for (auto [p, a] : llvm::zip_equal(predicted, actual)) {
    residual += (a - p) * (a - p);
    spread += (a - mean) * (a - mean);
  }
  return spread > 0 ? 1.0 - residual / spread : 0.0;
}

void mlir::tessel::fasor::setTorchThreads(int threads) {
  torch::set_num_threads(std::max(threads, 1));
}
