//===- TemporaryRecords.h - A records database for one test -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A records database in a fresh temporary file, removed when the test is
// done with it; shared by the tests that tune through tune().
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_UNITTESTS_TUNER_TEMPORARYRECORDS_H
#define TESSEL_UNITTESTS_TUNER_TEMPORARYRECORDS_H

#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <memory>
#include <string>

namespace mlir {
namespace tessel {

class TemporaryRecords {
public:
  /// An empty records database in a new temporary file named after
  /// `prefix`.
  static llvm::Expected<std::unique_ptr<TemporaryRecords>>
  create(llvm::StringRef prefix) {
    llvm::SmallString<128> path;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile(prefix, "db", path))
      return llvm::createStringError(ec, "cannot create a temporary file");
    llvm::sys::fs::remove(path);
    auto records = std::unique_ptr<TemporaryRecords>(new TemporaryRecords);
    records->path = path.str().str();
    auto opened = RecordsDatabase::open(
        records->path, RecordsDatabase::OpenMode::CreateOrOpen);
    if (!opened)
      return opened.takeError();
    records->db = std::move(*opened);
    return records;
  }
  ~TemporaryRecords() {
    db.reset();
    llvm::sys::fs::remove(path);
  }

  RecordsDatabase &get() const { return *db; }

private:
  TemporaryRecords() = default;
  std::string path;
  std::unique_ptr<RecordsDatabase> db;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_UNITTESTS_TUNER_TEMPORARYRECORDS_H
