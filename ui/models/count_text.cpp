// SPDX-License-Identifier: Apache-2.0
#include <QLocale>

#include "ui/models/core_text.h"

namespace drasim::ui {

QString countText(qint64 n)
{
    QLocale locale;
    if (locale.language() == QLocale::C)
        locale = QLocale(QLocale::English, QLocale::UnitedStates);
    return locale.toString(n);
}

QString countOf(qint64 n, const QString& one, const QString& many)
{
    return countText(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

} // namespace drasim::ui
