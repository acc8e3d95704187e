// SPDX-License-Identifier: Apache-2.0
#include "ui/document/recent_files.h"

#include <QSettings>
#include <QVariant>

namespace drasim::ui {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

QList<QStringList> RecentFiles::entries()
{
    QList<QStringList> out;
    for (const QVariant& v : QSettings().value(kKey).toList()) {
        const QStringList paths = v.toStringList();
        if (!paths.isEmpty())
            out << paths;
    }
    return out;
}

void RecentFiles::add(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    QList<QStringList> list = entries();
    list.removeAll(paths);
    list.prepend(paths);
    while (list.size() > kMaxEntries)
        list.removeLast();
    QVariantList stored;
    for (const auto& entry : list)
        stored << QVariant(entry);
    QSettings().setValue(kKey, stored);
}

void RecentFiles::clear()
{
    QSettings().remove(kKey);
}

} // namespace drasim::ui
