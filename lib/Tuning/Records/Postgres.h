//===- Postgres.h - The records' SQL over PostgreSQL ------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// sql::Connection over libpq: a database on a PostgreSQL server, shared by
// tuners and workers on many hosts. Private to the records database.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LIB_TUNING_RECORDS_POSTGRES_H
#define TESSEL_LIB_TUNING_RECORDS_POSTGRES_H

#include "SqlConnection.h"

namespace mlir {
namespace tessel {
namespace sql {

/// Whether `url` names a PostgreSQL database (postgresql:// or postgres://).
bool isPostgresUrl(llvm::StringRef url);

/// `url` with its password, if any, replaced by "***".
std::string redactPostgresUrl(llvm::StringRef url);

/// `sql` with SQLite's numbered parameters `?N` written as PostgreSQL's
/// `$N` (outside quoted strings and identifiers); `count` is set to the
/// highest N.
std::string toPostgresParameters(llvm::StringRef sql, int &count);

/// Connects to the PostgreSQL database at `url` (10 s connect timeout unless
/// the URL sets one). Fails with libpq's message on one line, naming the URL
/// without its password.
llvm::Expected<std::unique_ptr<Connection>>
connectPostgres(llvm::StringRef url);

} // namespace sql
} // namespace tessel
} // namespace mlir

#endif // TESSEL_LIB_TUNING_RECORDS_POSTGRES_H
