//===- VendorLibraries.cpp - cuBLAS and cuDNN, opened at run time ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "VendorLibraries.h"

#include <cstdlib>

#include <dlfcn.h>

using namespace tessel::runtime;

#define TESSEL_STRINGIFY_IMPL(x) #x
#define TESSEL_STRINGIFY(x) TESSEL_STRINGIFY_IMPL(x)

#ifndef TESSEL_DEFAULT_CUDA_PATH
#define TESSEL_DEFAULT_CUDA_PATH "/usr/local/cuda"
#endif

std::string CublasApi::describe(cublasStatus_t status) const {
  if (getStatusName)
    if (const char *name = getStatusName(status))
      return name;
  return "cuBLAS status " + std::to_string(static_cast<int>(status));
}

std::string CudnnApi::describe(cudnnStatus_t status) const {
  const char *text =
      cudnnGetErrorString ? cudnnGetErrorString(status) : nullptr;
  return text ? text
              : "cuDNN status " + std::to_string(static_cast<int>(status));
}

std::vector<std::string> tessel::runtime::getVendorSearchDirs() {
  std::vector<std::string> dirs;
  if (const char *path = std::getenv("TESSEL_VENDOR_LIB_PATH")) {
    std::string list = path;
    size_t start = 0;
    while (start <= list.size()) {
      size_t colon = list.find(':', start);
      if (colon == std::string::npos)
        colon = list.size();
      if (colon > start)
        dirs.push_back(list.substr(start, colon - start));
      start = colon + 1;
    }
  }
  dirs.push_back("");
  for (std::string dir : {std::string(TESSEL_DEFAULT_CUDA_PATH) + "/lib64",
                          std::string("/usr/local/cuda/lib64")}) {
    bool seen = false;
    for (const std::string &other : dirs)
      seen |= other == dir;
    if (!seen)
      dirs.push_back(dir);
  }
  return dirs;
}

/// Opens the first of `names` in the search places; sets `path` to it.
static void *openFirst(const char *what,
                       std::initializer_list<const char *> names,
                       std::string &path, std::string &error) {
  std::string tried, lastError;
  for (const std::string &dir : getVendorSearchDirs()) {
    for (const char *name : names) {
      std::string candidate = dir.empty() ? name : dir + "/" + name;
      if (void *library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) {
        path = candidate;
        return library;
      }
      const char *message = dlerror();
      lastError = message ? message : "unknown error";
      tried += (tried.empty() ? "" : ", ") + candidate;
    }
  }
  error = std::string("cannot open ") + what + " (tried " + tried +
          "; set TESSEL_VENDOR_LIB_PATH to its directory): " + lastError;
  return nullptr;
}

bool tessel::runtime::loadCublas(CublasApi &api, std::string &error) {
  void *library = openFirst("cuBLAS", {"libcublas.so.13", "libcublas.so.12"},
                            api.path, error);
  if (!library)
    return false;
#define TESSEL_RESOLVE(name)                                                   \
  api.name = reinterpret_cast<decltype(api.name)>(                             \
      dlsym(library, TESSEL_STRINGIFY(name)));                                 \
  if (!api.name) {                                                             \
    error = api.path + " has no entry point " TESSEL_STRINGIFY(name);          \
    return false;                                                              \
  }
  TESSEL_CUBLAS_FUNCTIONS(TESSEL_RESOLVE)
#undef TESSEL_RESOLVE
  api.getStatusName = reinterpret_cast<decltype(api.getStatusName)>(
      dlsym(library, "cublasGetStatusName"));
  return true;
}

bool tessel::runtime::loadCudnn(CudnnApi &api, std::string &error) {
  void *library =
      openFirst("cuDNN", {"libcudnn.so.9", "libcudnn.so.8"}, api.path, error);
  if (!library)
    return false;
#define TESSEL_RESOLVE(name)                                                   \
  api.name = reinterpret_cast<decltype(api.name)>(                             \
      dlsym(library, TESSEL_STRINGIFY(name)));                                 \
  if (!api.name) {                                                             \
    error = api.path + " has no entry point " TESSEL_STRINGIFY(name);          \
    return false;                                                              \
  }
  TESSEL_CUDNN_FUNCTIONS(TESSEL_RESOLVE)
#undef TESSEL_RESOLVE
  return true;
}
