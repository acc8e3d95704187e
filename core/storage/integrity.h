// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace drasim::storage {

class Database;

/// Refuses a damaged file before anything is written to it: SQLite's structural check (PRAGMA
/// quick_check: every page of every table and index reachable once, well formed, in order) must
/// pass, else StorageError "<path>: the store is damaged (<SQLite's first finding>); it was left
/// untouched". A write into a damaged b-tree can spread the damage to rows that were still
/// readable, so every opener checks, not only the commands that happen to read the bad pages.
void refuseDamagedStore(Database& db);

} // namespace drasim::storage
