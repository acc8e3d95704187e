// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QStringList>

namespace drasim::ui {

/// The inputs opened lately, newest first, kept in QSettings ("recentFiles"). One entry is what
/// one open took: a Scenario file, or a set of manifest files and folders.
class RecentFiles
{
public:
    static constexpr int kMaxEntries = 10;

    static QList<QStringList> entries();
    /// Moves (or adds) the entry to the front, dropping the oldest beyond kMaxEntries.
    static void add(const QStringList& paths);
    static void clear();
};

} // namespace drasim::ui
