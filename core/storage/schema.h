// SPDX-License-Identifier: Apache-2.0
#pragma once

// The one schema of a drasim store, shared by every table in the file (runs, scenarios and their
// revisions, variants, planner studies), with one version number (PRAGMA user_version).

namespace drasim::storage {

class Database;

/// The version this build writes. Migrations move a file from version i to i + 1.
constexpr int kSchemaVersion = 7;

/// Checks the file's soundness (integrity.h) and version before anything is written to it, then
/// turns WAL on and migrates (each migration one transaction). A damaged file, or one from a newer
/// drasim, is refused with StorageError ("<path>: the store was written by a newer drasim (schema
/// 9, this version knows 4); it was left untouched"), and nothing in it changes. Every store
/// (runs, scenarios, planner studies) is opened through here.
void openSchema(Database& db);

/// Moves `db` from its version up to `version` (at most kSchemaVersion) by the shipped migrations,
/// each one transaction; nothing when it is there already. openSchema goes up to kSchemaVersion;
/// tests stop earlier to hold a store as an older drasim left it (shipped migrations never change).
void migrateSchema(Database& db, int version);

} // namespace drasim::storage
