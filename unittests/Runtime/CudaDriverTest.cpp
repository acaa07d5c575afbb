//===- CudaDriverTest.cpp - Tests of the driver wrapper without a GPU -----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/CudaDriver.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace tessel::runtime;

namespace {

TEST(CudaDriverTest, ClassifiesErrors) {
  EXPECT_EQ(classifyCudaError(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES),
            ErrorClass::OutOfResources);
  EXPECT_EQ(classifyCudaError(CUDA_ERROR_OUT_OF_MEMORY),
            ErrorClass::OutOfResources);
  for (CUresult sticky :
       {CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_MISALIGNED_ADDRESS,
        CUDA_ERROR_ILLEGAL_INSTRUCTION, CUDA_ERROR_LAUNCH_FAILED,
        CUDA_ERROR_LAUNCH_TIMEOUT, CUDA_ERROR_ECC_UNCORRECTABLE,
        CUDA_ERROR_HARDWARE_STACK_ERROR, CUDA_ERROR_ASSERT})
    EXPECT_EQ(classifyCudaError(sticky), ErrorClass::Sticky) << sticky;
  for (CUresult launch : {CUDA_ERROR_INVALID_IMAGE, CUDA_ERROR_INVALID_PTX,
                          CUDA_ERROR_NO_BINARY_FOR_GPU, CUDA_ERROR_NOT_FOUND,
                          CUDA_ERROR_INVALID_VALUE})
    EXPECT_EQ(classifyCudaError(launch), ErrorClass::LaunchError) << launch;
}

TEST(CudaDriverTest, BuiltinErrorNames) {
  EXPECT_STREQ(getBuiltinCudaErrorName(CUDA_ERROR_STUB_LIBRARY),
               "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_STREQ(getBuiltinCudaErrorName(CUDA_ERROR_ILLEGAL_ADDRESS),
               "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(getBuiltinCudaErrorName(static_cast<CUresult>(12345)), nullptr);
}

TEST(CudaDriverTest, MissingLibraryIsReported) {
  setenv("TESSEL_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  std::string reason;
  EXPECT_EQ(CudaDriver::open(0, reason), nullptr);
  unsetenv("TESSEL_CUDA_DRIVER");
  EXPECT_EQ(reason, "cannot open /nonexistent/libcuda.so.1: cannot open "
                    "shared object file: No such file or directory");
}

TEST(CudaDriverTest, LibraryWithoutEntryPointsIsReported) {
  // The C library is a shared object with none of the driver's symbols.
  setenv("TESSEL_CUDA_DRIVER", "libc.so.6", 1);
  std::string reason;
  EXPECT_EQ(CudaDriver::open(0, reason), nullptr);
  unsetenv("TESSEL_CUDA_DRIVER");
  EXPECT_EQ(reason, "libc.so.6 has no entry point cuInit (the driver is too "
                    "old)");
}

TEST(CudaDriverTest, StatusCarriesTheClass) {
  Status ok = Status::success();
  EXPECT_TRUE(ok.ok());
  Status failed =
      Status::failure(ErrorClass::Sticky, "boom", CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(failed.errorClass, ErrorClass::Sticky);
  EXPECT_EQ(failed.code, CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_EQ(failed.message, "boom");
}

} // namespace
