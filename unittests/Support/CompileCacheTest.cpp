//===- CompileCacheTest.cpp - The content-addressed compile cache ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Support/CompileCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

using namespace mlir::tessel;

namespace {
/// A fresh directory, removed at the end of the test.
struct TempDir {
  llvm::SmallString<128> path;
  TempDir() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tessel-cache", path));
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string sub(llvm::StringRef name) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
};

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string("<missing>");
}

void writeFile(const std::string &path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec);
  os << contents;
}

/// Sets a file's access and modification time to `secondsAgo` ago.
void age(const std::string &path, int secondsAgo) {
  int fd;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
      path, fd, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append));
  auto when =
      std::chrono::system_clock::now() - std::chrono::seconds(secondsAgo);
  ASSERT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(fd, when));
  ::close(fd);
}
} // namespace

TEST(CompileCache, StoresAndFindsPayloads) {
  TempDir dir;
  CompileCache cache(dir.sub("cache"), /*maxBytes=*/0);
  std::string key = CompileCache::makeKey({"a", "b"});
  std::string payload;
  EXPECT_EQ(cache.lookup(key, payload), CacheLookup::Miss);
  // Binary payloads, zero bytes included, come back exactly.
  std::string stored("cubin\0\x7f"
                     "ELF",
                     9);
  ASSERT_TRUE(cache.store(key, stored));
  ASSERT_EQ(cache.lookup(key, payload), CacheLookup::Hit);
  EXPECT_EQ(payload, stored);
  // A store replaces the entry.
  ASSERT_TRUE(cache.store(key, "other"));
  ASSERT_EQ(cache.lookup(key, payload), CacheLookup::Hit);
  EXPECT_EQ(payload, "other");
}

TEST(CompileCache, KeysSeparateTheirParts) {
  EXPECT_NE(CompileCache::makeKey({"ab", "c"}),
            CompileCache::makeKey({"a", "bc"}));
  EXPECT_NE(CompileCache::makeKey({"a", ""}), CompileCache::makeKey({"a"}));
  EXPECT_EQ(CompileCache::makeKey({"x", "y"}),
            CompileCache::makeKey({"x", "y"}));
  EXPECT_EQ(CompileCache::makeKey({"x"}).size(), 64u);
}

TEST(CompileCache, CorruptEntriesAreRemovedNotUsed) {
  TempDir dir;
  CompileCache cache(dir.sub("cache"), 0);
  std::string key = CompileCache::makeKey({"k"});
  ASSERT_TRUE(cache.store(key, "payload of some length"));
  std::string entry = readFile(cache.getEntryPath(key));

  // One payload byte changed: the checksum tells.
  std::string flipped = entry;
  flipped[flipped.size() - 3] ^= 0x1;
  writeFile(cache.getEntryPath(key), flipped);
  std::string payload = "untouched";
  EXPECT_EQ(cache.lookup(key, payload), CacheLookup::Corrupt);
  EXPECT_EQ(payload, "untouched");
  EXPECT_FALSE(llvm::sys::fs::exists(cache.getEntryPath(key)));
  EXPECT_EQ(cache.lookup(key, payload), CacheLookup::Miss);

  // Truncated, and not an entry at all.
  for (std::string bad : {entry.substr(0, entry.size() - 1),
                          entry.substr(0, 10), std::string("plain text")}) {
    writeFile(cache.getEntryPath(key), bad);
    EXPECT_EQ(cache.lookup(key, payload), CacheLookup::Corrupt) << bad.size();
  }
}

TEST(CompileCache, PacksFields) {
  std::vector<llvm::StringRef> fields = {"one", "", llvm::StringRef("\0z", 2)};
  std::string packed = CompileCache::packFields(fields);
  auto unpacked = CompileCache::unpackFields(packed);
  ASSERT_TRUE(unpacked);
  ASSERT_EQ(unpacked->size(), 3u);
  EXPECT_EQ((*unpacked)[0], "one");
  EXPECT_EQ((*unpacked)[1], "");
  EXPECT_EQ((*unpacked)[2], std::string("\0z", 2));
  EXPECT_FALSE(CompileCache::unpackFields(packed.substr(0, packed.size() - 1)));
  EXPECT_FALSE(CompileCache::unpackFields("abc"));
}

TEST(CompileCache, LooksUpPackedFields) {
  TempDir dir;
  CompileCache cache(dir.sub("cache"), 0);
  std::string key = CompileCache::makeKey({"fields"});
  std::vector<std::string> fields = {"untouched"};
  EXPECT_EQ(cache.lookupFields(key, 2, fields), CacheLookup::Miss);
  ASSERT_TRUE(cache.store(key, CompileCache::packFields({"cubin", "log"})));
  EXPECT_EQ(cache.lookupFields(key, 2, fields), CacheLookup::Hit);
  EXPECT_EQ(fields, (std::vector<std::string>{"cubin", "log"}));
  // Another count, or a payload that is no packing: corrupt, fields kept,
  // the (intact) entry left for the next store.
  EXPECT_EQ(cache.lookupFields(key, 3, fields), CacheLookup::Corrupt);
  EXPECT_EQ(fields, (std::vector<std::string>{"cubin", "log"}));
  ASSERT_TRUE(cache.store(key, "abc"));
  EXPECT_EQ(cache.lookupFields(key, 1, fields), CacheLookup::Corrupt);
  EXPECT_TRUE(llvm::sys::fs::exists(cache.getEntryPath(key)));
}

TEST(CompileCache, ResolvesItsDirectory) {
  EXPECT_EQ(CompileCache::resolveDirectory("/some/dir"), "/some/dir");
  EXPECT_EQ(CompileCache::resolveDirectory("off"), "off");
  EXPECT_FALSE(CompileCache::open("off", 1));
  ::setenv("TESSEL_CACHE_DIR", "/from/env", 1);
  EXPECT_EQ(CompileCache::resolveDirectory(""), "/from/env");
  EXPECT_EQ(CompileCache::resolveDirectory("/option"), "/option");
  ::setenv("TESSEL_CACHE_DIR", "off", 1);
  EXPECT_FALSE(CompileCache::open("", 1));
  ::unsetenv("TESSEL_CACHE_DIR");
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(CompileCache::resolveDirectory(""), "/xdg/tessel");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", "/home/user", 1);
  EXPECT_EQ(CompileCache::resolveDirectory(""), "/home/user/.cache/tessel");
}

/// A function of this test's executable.
static void localFunction() {}

TEST(CompileCache, IdentifiesTheObjectHoldingCode) {
  std::string own = CompileCache::getLoadedObjectIdentity(
      reinterpret_cast<const void *>(&localFunction));
  std::string libc = CompileCache::getLoadedObjectIdentity(
      reinterpret_cast<const void *>(&::strlen));
  EXPECT_EQ(own.find("missing:"), std::string::npos) << own;
  EXPECT_NE(libc.find("libc"), std::string::npos) << libc;
  EXPECT_NE(own, libc);
  // Tessel's code is linked into this executable.
  EXPECT_EQ(CompileCache::getTesselBinaryIdentity(), own);
  // Path, size and modification time: a rebuilt file is another identity.
  EXPECT_EQ(CompileCache::getFileIdentity("/no/such/file"),
            "missing:/no/such/file");
}

TEST(CompileCache, PrunesLeastRecentlyUsedEntriesToItsLimit) {
  TempDir dir;
  CompileCache cache(dir.sub("cache"), /*maxBytes=*/2500);
  std::string kilobyte(1000, 'x');
  std::string a = CompileCache::makeKey({"a"}),
              b = CompileCache::makeKey({"b"}),
              c = CompileCache::makeKey({"c"});
  ASSERT_TRUE(cache.store(a, kilobyte));
  ASSERT_TRUE(cache.store(b, kilobyte));
  age(cache.getEntryPath(a), 200);
  age(cache.getEntryPath(b), 100);
  // Using `a` makes `b` the least recently used.
  std::string payload;
  ASSERT_EQ(cache.lookup(a, payload), CacheLookup::Hit);
  // Pruning runs at most once a minute: let this store prune.
  llvm::sys::fs::remove(dir.sub("cache/llvmcache.timestamp"));
  ASSERT_TRUE(cache.store(c, kilobyte));
  EXPECT_TRUE(llvm::sys::fs::exists(cache.getEntryPath(a)));
  EXPECT_FALSE(llvm::sys::fs::exists(cache.getEntryPath(b)));
  EXPECT_TRUE(llvm::sys::fs::exists(cache.getEntryPath(c)));
}

TEST(CompileCache, AnUnwritableCacheOnlyCostsTheCompile) {
  TempDir dir;
  writeFile(dir.sub("file"), "not a directory");
  CompileCache cache(dir.sub("file/cache"), 0);
  std::string key = CompileCache::makeKey({"k"}), payload;
  EXPECT_FALSE(cache.store(key, "payload"));
  EXPECT_EQ(cache.lookup(key, payload), CacheLookup::Miss);
}
