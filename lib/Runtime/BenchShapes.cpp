//===- BenchShapes.cpp - Shapes timed by tessel-vendor-bench --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/BenchShapes.h"

#include <limits>

using namespace tessel::runtime;

std::string GemmShape::str() const {
  std::string text =
      std::to_string(m) + "," + std::to_string(n) + "," + std::to_string(k);
  if (batch > 1)
    text += " --batch=" + std::to_string(batch);
  return text;
}

static int64_t convOutput(int64_t size, int64_t filter, int64_t stride,
                          int64_t pad, int64_t dilation) {
  int64_t span = dilation * (filter - 1) + 1;
  if (size + 2 * pad < span)
    return 0;
  return (size + 2 * pad - span) / stride + 1;
}

int64_t ConvShape::getOutputH() const {
  return convOutput(h, r, stride, pad, dilation);
}

int64_t ConvShape::getOutputW() const {
  return convOutput(w, s, stride, pad, dilation);
}

int64_t ConvShape::getWork() const {
  return n * f * getOutputH() * getOutputW() * c * r * s;
}

std::string ConvShape::str() const {
  std::string text;
  for (int64_t value : {n, c, h, w, f, r, s, stride, pad, dilation})
    text += (text.empty() ? "" : ",") + std::to_string(value);
  return text;
}

/// Splits "a,b,c" into integers; `option` names the text in errors.
static bool parseIntegers(std::string_view option, std::string_view text,
                          std::vector<int64_t> &values, std::string &error) {
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  std::string prefix = std::string(option) + std::string(text) + ": ";
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(start, comma == std::string_view::npos
                                                   ? std::string_view::npos
                                                   : comma - start);
    if (item.empty()) {
      error = prefix + "empty value";
      return false;
    }
    int64_t value = 0;
    for (char c : item) {
      if (c < '0' || c > '9') {
        error = prefix + "'" + std::string(item) +
                "' is not a non-negative integer";
        return false;
      }
      value = value * 10 + (c - '0');
      if (value > kMax) {
        error = prefix + "'" + std::string(item) + "' is too large (at most " +
                std::to_string(kMax) + ")";
        return false;
      }
    }
    values.push_back(value);
    if (comma == std::string_view::npos)
      return true;
    start = comma + 1;
  }
}

bool tessel::runtime::parseGemmShape(std::string_view text, GemmShape &shape,
                                     std::string &error) {
  std::vector<int64_t> values;
  if (!parseIntegers("--gemm=", text, values, error))
    return false;
  std::string prefix = "--gemm=" + std::string(text) + ": ";
  if (values.size() != 3) {
    error = prefix + "expected 3 comma-separated integers M,N,K, got " +
            std::to_string(values.size());
    return false;
  }
  const char *names[] = {"M", "N", "K"};
  for (int i = 0; i < 3; ++i)
    if (values[i] < 1) {
      error = prefix + names[i] + " must be positive";
      return false;
    }
  shape.m = values[0];
  shape.n = values[1];
  shape.k = values[2];
  return true;
}

bool tessel::runtime::parseConvShape(std::string_view text, ConvShape &shape,
                                     std::string &error) {
  std::vector<int64_t> values;
  if (!parseIntegers("--conv=", text, values, error))
    return false;
  std::string prefix = "--conv=" + std::string(text) + ": ";
  if (values.size() != 9 && values.size() != 10) {
    error = prefix +
            "expected 9 or 10 comma-separated integers "
            "N,C,H,W,F,R,S,stride,pad[,dilation], got " +
            std::to_string(values.size());
    return false;
  }
  if (values.size() == 9)
    values.push_back(1);
  const char *names[] = {"N", "C", "H",      "W",   "F",
                         "R", "S", "stride", "pad", "dilation"};
  for (int i = 0; i < 10; ++i)
    if (i != 8 && values[i] < 1) {
      error = prefix + names[i] + " must be positive";
      return false;
    }
  shape = ConvShape{values[0], values[1], values[2], values[3], values[4],
                    values[5], values[6], values[7], values[8], values[9]};
  if (shape.getOutputH() < 1 || shape.getOutputW() < 1) {
    error = prefix +
            "the output is empty (P = " + std::to_string(shape.getOutputH()) +
            ", Q = " + std::to_string(shape.getOutputW()) + ")";
    return false;
  }
  return true;
}

bool tessel::runtime::parseShapeLine(std::string_view line, BenchShape &shape,
                                     std::string &error) {
  bool haveGemm = false, haveConv = false, haveBatch = false;
  int64_t batch = 1;
  size_t pos = 0;
  while (pos < line.size()) {
    if (line[pos] == ' ' || line[pos] == '\t') {
      ++pos;
      continue;
    }
    size_t end = line.find_first_of(" \t", pos);
    std::string_view token =
        line.substr(pos, end == std::string_view::npos ? std::string_view::npos
                                                       : end - pos);
    pos = end == std::string_view::npos ? line.size() : end;
    std::string_view option = token;
    if (option.substr(0, 2) == "--")
      option.remove_prefix(2);
    size_t equals = option.find('=');
    std::string_view key = option.substr(0, equals);
    std::string_view value = equals == std::string_view::npos
                                 ? std::string_view()
                                 : option.substr(equals + 1);
    if (key != "gemm" && key != "conv" && key != "batch") {
      error = "unknown option '" + std::string(token) + "'";
      return false;
    }
    if (equals == std::string_view::npos) {
      error = "option '--" + std::string(key) + "' needs a value";
      return false;
    }
    if ((key == "gemm" || key == "conv") && (haveGemm || haveConv)) {
      error = "expected one shape, got a second one in '" + std::string(token) +
              "'";
      return false;
    }
    if (key == "gemm") {
      haveGemm = true;
      if (!parseGemmShape(value, shape.gemm, error))
        return false;
    } else if (key == "conv") {
      haveConv = true;
      if (!parseConvShape(value, shape.conv, error))
        return false;
    } else {
      std::vector<int64_t> values;
      if (!parseIntegers("--batch=", value, values, error))
        return false;
      if (values.size() != 1 || values[0] < 1) {
        error =
            "--batch=" + std::string(value) + ": expected one positive integer";
        return false;
      }
      haveBatch = true;
      batch = values[0];
    }
  }
  if (!haveGemm && !haveConv) {
    error = "expected --gemm=M,N,K [--batch=B] or "
            "--conv=N,C,H,W,F,R,S,stride,pad[,dilation]";
    return false;
  }
  if (haveBatch && !haveGemm) {
    error = "--batch applies to --gemm only";
    return false;
  }
  shape.kind = haveGemm ? BenchShape::Kind::Gemm : BenchShape::Kind::Conv;
  shape.gemm.batch = batch;
  return true;
}

bool tessel::runtime::parseShapesFile(std::string_view text,
                                      std::vector<BenchShape> &shapes,
                                      std::string &error) {
  size_t lineNumber = 0, pos = 0;
  while (pos < text.size()) {
    ++lineNumber;
    size_t end = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, end == std::string_view::npos ? std::string_view::npos
                                                       : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    size_t hash = line.find('#');
    if (hash != std::string_view::npos)
      line = line.substr(0, hash);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos)
      continue;
    while (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    BenchShape shape;
    if (!parseShapeLine(line, shape, error)) {
      error = "line " + std::to_string(lineNumber) + ": " + error;
      return false;
    }
    shapes.push_back(shape);
  }
  return true;
}

void tessel::runtime::referenceGemm(const GemmShape &shape, const float *a,
                                    const float *b, double *c) {
  for (int64_t batch = 0; batch < shape.batch; ++batch) {
    const float *aBatch = a + batch * shape.m * shape.k;
    const float *bBatch = b + batch * shape.k * shape.n;
    double *cBatch = c + batch * shape.m * shape.n;
    for (int64_t i = 0; i < shape.m; ++i)
      for (int64_t j = 0; j < shape.n; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < shape.k; ++l)
          sum += static_cast<double>(aBatch[i * shape.k + l]) *
                 bBatch[l * shape.n + j];
        cBatch[i * shape.n + j] = sum;
      }
  }
}

void tessel::runtime::referenceConv(const ConvShape &shape, const float *x,
                                    const float *w, double *y) {
  int64_t p = shape.getOutputH(), q = shape.getOutputW();
  for (int64_t n = 0; n < shape.n; ++n)
    for (int64_t f = 0; f < shape.f; ++f)
      for (int64_t i = 0; i < p; ++i)
        for (int64_t j = 0; j < q; ++j) {
          double sum = 0;
          for (int64_t c = 0; c < shape.c; ++c)
            for (int64_t r = 0; r < shape.r; ++r)
              for (int64_t s = 0; s < shape.s; ++s) {
                int64_t row = i * shape.stride - shape.pad + r * shape.dilation;
                int64_t col = j * shape.stride - shape.pad + s * shape.dilation;
                if (row < 0 || row >= shape.h || col < 0 || col >= shape.w)
                  continue;
                sum += static_cast<double>(
                           x[((n * shape.c + c) * shape.h + row) * shape.w +
                             col]) *
                       w[((f * shape.c + c) * shape.r + r) * shape.s + s];
              }
          y[((n * shape.f + f) * p + i) * q + j] = sum;
        }
}
