// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/column_widths.h"

#include <algorithm>

#include <QFont>
#include <QFontMetrics>
#include <QHeaderView>
#include <QStyle>
#include <QTableView>

namespace drasim::ui {

namespace {

/// Rows spread evenly over the model, first and last included: late rows of a run (pod names
/// with more digits, other kinds of events) count as much as the first ones.
QList<int> sampleRows(int rowCount, int sampleRows)
{
    QList<int> rows;
    const int n = std::min(rowCount, sampleRows);
    for (int i = 0; i < n; ++i)
        rows << (n == 1 ? 0 : int((qint64(rowCount - 1) * i) / (n - 1)));
    return rows;
}

} // namespace

void fitColumnsToSample(QTableView* view, int sampleRows, bool growOnly)
{
    const QAbstractItemModel* model = view->model();
    if (!model)
        return;
    const QFontMetrics header(view->horizontalHeader()->font());
    const int padding = 2 * view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 12;
    const QList<int> rows = drasim::ui::sampleRows(model->rowCount(), sampleRows);
    const int columns = model->columnCount();
    for (int c = 0; c + 1 < columns; ++c) {
        if (view->isColumnHidden(c))
            continue;
        int width = header.horizontalAdvance(model->headerData(c, Qt::Horizontal).toString()) + padding + 8;
        for (int r : rows) {
            const QModelIndex index = model->index(r, c);
            // A row the model sets in bold (the current event, say) is measured in bold.
            const QVariant font = index.data(Qt::FontRole);
            const QFontMetrics cells(
                font.isValid() ? font.value<QFont>().resolve(view->font()) : view->font());
            width = std::max(width, cells.horizontalAdvance(index.data().toString()) + padding);
        }
        view->setColumnWidth(c, growOnly ? std::max(width, view->columnWidth(c)) : width);
    }
}

} // namespace drasim::ui
