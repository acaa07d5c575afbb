//===- BenchShapesTest.cpp - Tests of tessel-vendor-bench shapes ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/BenchShapes.h"

#include "gtest/gtest.h"

using namespace tessel::runtime;

namespace {

std::string lineError(const std::string &line) {
  BenchShape shape;
  std::string error;
  if (parseShapeLine(line, shape, error))
    return "";
  return error;
}

TEST(BenchShapesTest, Gemm) {
  BenchShape shape;
  std::string error;
  ASSERT_TRUE(parseShapeLine("--gemm=512,256,128", shape, error)) << error;
  EXPECT_EQ(shape.kind, BenchShape::Kind::Gemm);
  EXPECT_EQ(shape.gemm.m, 512);
  EXPECT_EQ(shape.gemm.n, 256);
  EXPECT_EQ(shape.gemm.k, 128);
  EXPECT_EQ(shape.gemm.batch, 1);
  EXPECT_EQ(shape.gemm.getFlops(), 2.0 * 512 * 256 * 128);
  EXPECT_EQ(shape.gemm.str(), "512,256,128");

  ASSERT_TRUE(parseShapeLine("  batch=8\tgemm=64,64,64 ", shape, error))
      << error;
  EXPECT_EQ(shape.gemm.batch, 8);
  EXPECT_EQ(shape.gemm.getWork(), 8 * 64 * 64 * 64);
  EXPECT_EQ(shape.gemm.str(), "64,64,64 --batch=8");
}

TEST(BenchShapesTest, Conv) {
  BenchShape shape;
  std::string error;
  ASSERT_TRUE(parseShapeLine("--conv=1,64,56,56,64,3,3,1,1", shape, error))
      << error;
  EXPECT_EQ(shape.kind, BenchShape::Kind::Conv);
  const ConvShape &conv = shape.conv;
  EXPECT_EQ(conv.dilation, 1);
  EXPECT_EQ(conv.getOutputH(), 56);
  EXPECT_EQ(conv.getOutputW(), 56);
  EXPECT_EQ(conv.getFlops(), 2.0 * 64 * 56 * 56 * 64 * 3 * 3);
  EXPECT_EQ(conv.str(), "1,64,56,56,64,3,3,1,1,1");

  ASSERT_TRUE(parseShapeLine("--conv=2,3,224,224,64,7,7,2,3,1", shape, error));
  EXPECT_EQ(shape.conv.getOutputH(), 112);
  ASSERT_TRUE(parseShapeLine("--conv=1,1,10,12,1,3,3,1,0,2", shape, error));
  EXPECT_EQ(shape.conv.getOutputH(), 6);
  EXPECT_EQ(shape.conv.getOutputW(), 8);
}

TEST(BenchShapesTest, Errors) {
  EXPECT_EQ(lineError("--gemm=1,2"),
            "--gemm=1,2: expected 3 comma-separated integers M,N,K, got 2");
  EXPECT_EQ(lineError("--gemm=1,x,3"),
            "--gemm=1,x,3: 'x' is not a non-negative integer");
  EXPECT_EQ(lineError("--gemm=1,,3"), "--gemm=1,,3: empty value");
  EXPECT_EQ(lineError("--gemm=0,2,3"), "--gemm=0,2,3: M must be positive");
  EXPECT_EQ(lineError("--gemm=1,2,3000000000"),
            "--gemm=1,2,3000000000: '3000000000' is too large (at most "
            "2147483647)");
  EXPECT_EQ(lineError("--conv=1,2,3"),
            "--conv=1,2,3: expected 9 or 10 comma-separated integers "
            "N,C,H,W,F,R,S,stride,pad[,dilation], got 3");
  EXPECT_EQ(lineError("--conv=1,1,4,4,1,3,3,0,1"),
            "--conv=1,1,4,4,1,3,3,0,1: stride must be positive");
  EXPECT_EQ(lineError("--conv=1,1,2,2,1,5,5,1,0"),
            "--conv=1,1,2,2,1,5,5,1,0: the output is empty (P = 0, Q = 0)");
  EXPECT_EQ(lineError("--gemm=1,2,3 --conv=1,1,4,4,1,3,3,1,1"),
            "expected one shape, got a second one in "
            "'--conv=1,1,4,4,1,3,3,1,1'");
  EXPECT_EQ(lineError("--batch=4 --conv=1,1,4,4,1,3,3,1,1"),
            "--batch applies to --gemm only");
  EXPECT_EQ(lineError("--batch=0 --gemm=1,1,1"),
            "--batch=0: expected one positive integer");
  EXPECT_EQ(lineError("--gemm"), "option '--gemm' needs a value");
  EXPECT_EQ(lineError("--matmul=1,2,3"), "unknown option '--matmul=1,2,3'");
  EXPECT_EQ(lineError(""), "expected --gemm=M,N,K [--batch=B] or "
                           "--conv=N,C,H,W,F,R,S,stride,pad[,dilation]");
}

TEST(BenchShapesTest, ShapesFile) {
  std::vector<BenchShape> shapes;
  std::string error;
  ASSERT_TRUE(parseShapesFile("# ResNet-50\n"
                              "--gemm=1024,1024,1024\n"
                              "\n"
                              "  # indented comment\n"
                              "conv=1,64,56,56,64,3,3,1,1  # 3x3\r\n"
                              "--gemm=64,64,64 --batch=4",
                              shapes, error))
      << error;
  ASSERT_EQ(shapes.size(), 3u);
  EXPECT_EQ(shapes[0].kind, BenchShape::Kind::Gemm);
  EXPECT_EQ(shapes[1].kind, BenchShape::Kind::Conv);
  EXPECT_EQ(shapes[2].gemm.batch, 4);

  shapes.clear();
  EXPECT_FALSE(
      parseShapesFile("--gemm=1,1,1\n# ok\n--gemm=1,1\n", shapes, error));
  EXPECT_EQ(error, "line 3: --gemm=1,1: expected 3 comma-separated integers "
                   "M,N,K, got 2");
}

TEST(BenchShapesTest, ReferenceGemm) {
  GemmShape shape{2, 2, 3, 2};
  // Batch 0: A = [1 2 3; 4 5 6], B = [1 0; 0 1; 1 1]; batch 1: A = -A.
  std::vector<float> a = {1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6};
  std::vector<float> b = {1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1};
  std::vector<double> c(8);
  referenceGemm(shape, a.data(), b.data(), c.data());
  EXPECT_EQ(c, (std::vector<double>{4, 5, 10, 11, -4, -5, -10, -11}));
}

TEST(BenchShapesTest, ReferenceConv) {
  // One 3x3 input, a 2x2 filter of ones, pad 1, stride 2: P = Q = 2.
  ConvShape shape{1, 1, 3, 3, 1, 2, 2, 2, 1, 1};
  ASSERT_EQ(shape.getOutputH(), 2);
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<float> w = {1, 1, 1, 1};
  std::vector<double> y(4);
  referenceConv(shape, x.data(), w.data(), y.data());
  // Windows at rows/cols {-1, 0} and {1, 2}.
  EXPECT_EQ(y, (std::vector<double>{1, 2 + 3, 4 + 7, 5 + 6 + 8 + 9}));
}

} // namespace
