//===- Sqlite.h - The records' SQL over SQLite ------------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// sql::Connection over the SQLite C API: one database file. Private to the
// records database.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LIB_TUNING_RECORDS_SQLITE_H
#define TESSEL_LIB_TUNING_RECORDS_SQLITE_H

#include "SqlConnection.h"

struct sqlite3;

namespace mlir {
namespace tessel {
namespace sql {

/// A connection to one SQLite file.
class SqliteConnection : public Connection {
public:
  /// Takes `db` (possibly a handle that failed to open) for the file `path`.
  SqliteConnection(sqlite3 *db, std::string path)
      : Connection(Engine::SQLite, std::move(path)), db(db) {}
  ~SqliteConnection() override;

  sqlite3 *get() const { return db; }

  llvm::Error exec(const char *sql) override;
  llvm::Error beginWriting() override;
  bool inTransaction() const override;

protected:
  std::unique_ptr<PreparedStatement> prepareStatement(const char *sql,
                                                      bool &ok) override;
  std::string lastMessage() const override;

private:
  sqlite3 *db;
};

} // namespace sql
} // namespace tessel
} // namespace mlir

#endif // TESSEL_LIB_TUNING_RECORDS_SQLITE_H
