// SPDX-License-Identifier: Apache-2.0
#include "core/storage/integrity.h"

#include <string>

#include <sqlite3.h>

#include "core/storage/database.h"

namespace drasim::storage {

namespace {

/// SQLite's first finding, or "" when the file is sound. quick_check, not integrity_check: it
/// reads every page once (linear in the file) and leaves out only the comparison of index
/// entries with their rows, which cannot tell a good file from a garbled page.
std::string firstProblem(Database& db)
{
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db.handle(), "PRAGMA quick_check(1)", -1, &stmt, nullptr) != SQLITE_OK)
        return sqlite3_errmsg(db.handle());
    std::string problem;
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        const unsigned char* text = sqlite3_column_text(stmt, 0);
        problem = text ? reinterpret_cast<const char*>(text) : "";
        if (problem == "ok")
            problem.clear();
    } else {
        problem = sqlite3_errmsg(db.handle()); // too damaged to be checked at all
    }
    sqlite3_finalize(stmt);
    return problem;
}

} // namespace

void refuseDamagedStore(Database& db)
{
    std::string problem = firstProblem(db);
    if (problem.empty())
        return;
    // SQLite's findings can span lines ("*** in database main ***\nPage 4: ..."); one line reads
    // as one error.
    if (problem.rfind("*** in database main ***\n", 0) == 0)
        problem.erase(0, problem.find('\n') + 1);
    for (char& c : problem)
        if (c == '\n')
            c = ' ';
    throw StorageError(db.path() + ": the store is damaged (" + problem + "); it was left untouched");
}

} // namespace drasim::storage
