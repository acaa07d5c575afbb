//===- VendorLibraries.h - cuBLAS and cuDNN, opened at run time -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// tessel-vendor-bench compiles against the toolkit's cublas_v2.h and cudnn.h
// but links neither library: like libcuda they are opened with dlopen, so
// the binary starts anywhere and says what is missing. Each entry point is
// resolved by the name the header maps it to (cublasSgemm is cublasSgemm_v2).
//
// Search order, for each library: the directories of TESSEL_VENDOR_LIB_PATH
// (colon separated), then the dynamic loader's own search (LD_LIBRARY_PATH,
// the ld.so cache), then <toolkit>/lib64 and /usr/local/cuda/lib64; in each
// place the newer major version first (libcublas.so.13, then .12;
// libcudnn.so.9, then .8).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_VENDOR_BENCH_VENDORLIBRARIES_H
#define TESSEL_TOOLS_TESSEL_VENDOR_BENCH_VENDORLIBRARIES_H

#include <cublas_v2.h>
#include <cudnn.h>

#include <string>
#include <vector>

namespace tessel {
namespace runtime {

#define TESSEL_CUBLAS_FUNCTIONS(X)                                             \
  X(cublasCreate)                                                              \
  X(cublasDestroy)                                                             \
  X(cublasGetVersion)                                                          \
  X(cublasSetStream)                                                           \
  X(cublasSetMathMode)                                                         \
  X(cublasSgemm)                                                               \
  X(cublasSgemmStridedBatched)

/// The cuBLAS entry points the benchmark uses.
struct CublasApi {
#define TESSEL_DECLARE_ENTRY_POINT(name) decltype(&::name) name = nullptr;
  TESSEL_CUBLAS_FUNCTIONS(TESSEL_DECLARE_ENTRY_POINT)
#undef TESSEL_DECLARE_ENTRY_POINT
  /// cublasGetStatusName (cuBLAS 11.4.2); null when absent.
  decltype(&::cublasGetStatusName) getStatusName = nullptr;
  /// The library that was opened.
  std::string path;

  /// "CUBLAS_STATUS_ALLOC_FAILED" (or the number, for old libraries).
  std::string describe(cublasStatus_t status) const;
};

#define TESSEL_CUDNN_FUNCTIONS(X)                                              \
  X(cudnnGetVersion)                                                           \
  X(cudnnGetErrorString)                                                       \
  X(cudnnCreate)                                                               \
  X(cudnnDestroy)                                                              \
  X(cudnnSetStream)                                                            \
  X(cudnnCreateTensorDescriptor)                                               \
  X(cudnnSetTensor4dDescriptor)                                                \
  X(cudnnDestroyTensorDescriptor)                                              \
  X(cudnnCreateFilterDescriptor)                                               \
  X(cudnnSetFilter4dDescriptor)                                                \
  X(cudnnDestroyFilterDescriptor)                                              \
  X(cudnnCreateConvolutionDescriptor)                                          \
  X(cudnnSetConvolution2dDescriptor)                                           \
  X(cudnnSetConvolutionMathType)                                               \
  X(cudnnDestroyConvolutionDescriptor)                                         \
  X(cudnnGetConvolution2dForwardOutputDim)                                     \
  X(cudnnGetConvolutionForwardAlgorithmMaxCount)                               \
  X(cudnnGetConvolutionForwardWorkspaceSize)                                   \
  X(cudnnFindConvolutionForwardAlgorithmEx)                                    \
  X(cudnnConvolutionForward)

/// The cuDNN entry points the benchmark uses.
struct CudnnApi {
#define TESSEL_DECLARE_ENTRY_POINT(name) decltype(&::name) name = nullptr;
  TESSEL_CUDNN_FUNCTIONS(TESSEL_DECLARE_ENTRY_POINT)
#undef TESSEL_DECLARE_ENTRY_POINT
  std::string path;

  /// "CUDNN_STATUS_BAD_PARAM (...)" as cuDNN words it.
  std::string describe(cudnnStatus_t status) const;
};

/// The places searched for a vendor library, in order; "" stands for the
/// dynamic loader's own search.
std::vector<std::string> getVendorSearchDirs();

/// Opens cuBLAS and resolves its entry points; on failure returns false and
/// sets `error` (naming every file tried).
bool loadCublas(CublasApi &api, std::string &error);
/// Opens cuDNN likewise.
bool loadCudnn(CudnnApi &api, std::string &error);

} // namespace runtime
} // namespace tessel

#endif // TESSEL_TOOLS_TESSEL_VENDOR_BENCH_VENDORLIBRARIES_H
