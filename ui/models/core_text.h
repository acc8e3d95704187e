// SPDX-License-Identifier: Apache-2.0
// The core's text (UTF-8 std::string) as the models hand it to Qt: one helper for every model, so
// that no two files of a unity batch define their own.
#pragma once

#include <string>

#include <QString>

namespace drasim::ui {

inline QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace drasim::ui

namespace drasim::ui {

/// A count with its thousands grouped as the user's locale groups them ("8,152"); the C locale,
/// which groups nothing, reads as English.
QString countText(qint64 n);

/// A count and its noun, in the noun's singular for 1 and its plural otherwise ("1 pod",
/// "8,152 pods"): the program ships no translation, so Qt's %n plural forms would read "pod(s)".
QString countOf(qint64 n, const QString& one, const QString& many);

} // namespace drasim::ui
