//===- RunColumns.h - The columns of a row of `runs` ------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The fields of a run in the order of the `runs` columns (after `id`), for
// the statements that insert a run and that look one up by its fields.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LIB_TUNING_RECORDS_RUNCOLUMNS_H
#define TESSEL_LIB_TUNING_RECORDS_RUNCOLUMNS_H

#include "SqlConnection.h"

#include "tessel/Tuning/Records/RecordsDatabase.h"

namespace mlir {
namespace tessel {

/// Binds the fields of `run` to ?1 .. ?9 of `stmt`, in the order of the
/// columns: started_at, strategy, seed, measurer, simulated, device_json,
/// options_json, tessel_version, model_source.
inline sql::Statement &bindRunColumns(sql::Statement &stmt,
                                      const RunInfo &run) {
  return stmt.bind(1, run.startedAt)
      .bind(2, llvm::StringRef(run.strategy))
      .bind(3, static_cast<int64_t>(run.seed))
      .bind(4, llvm::StringRef(run.measurer))
      .bind(5, static_cast<int64_t>(run.simulated))
      .bind(6, llvm::StringRef(run.deviceJson))
      .bind(7, llvm::StringRef(run.optionsJson))
      .bind(8, llvm::StringRef(run.tesselVersion))
      .bind(9, llvm::StringRef(run.modelSource));
}

} // namespace tessel
} // namespace mlir

#endif // TESSEL_LIB_TUNING_RECORDS_RUNCOLUMNS_H
