// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/column_widths.h"

#include <algorithm>

#include <QFont>
#include <QFontMetrics>
#include <QHeaderView>
#include <QStyle>
#include <QTableView>
#include <QTreeView>

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

/// Widths from the header and sampled rows; `indent` is added to the first column.
/// (A table's and a tree's setColumnWidth both resize their header's section.)
void fitColumns(QAbstractItemView* view, QHeaderView* headerView, int sampleRows, bool growOnly, int indent)
{
    const QAbstractItemModel* model = view->model();
    if (!model)
        return;
    const QFontMetrics header(headerView->font());
    const int padding = 2 * view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 12;
    const QList<int> rows = drasim::ui::sampleRows(model->rowCount(), sampleRows);
    const int columns = model->columnCount();
    for (int c = 0; c + 1 < columns; ++c) {
        if (headerView->isSectionHidden(c))
            continue;
        int width = header.horizontalAdvance(model->headerData(c, Qt::Horizontal).toString()) + padding + 8;
        for (int r : rows) {
            // A tree's row stands with its first child (a PodGroup's row with its first member).
            const QModelIndex first = model->index(r, 0);
            for (const QModelIndex& index : { model->index(r, c), model->index(0, c, first) }) {
                // A row the model sets in bold (the current event, say) is measured in bold.
                const QVariant font = index.data(Qt::FontRole);
                const QFontMetrics cells(
                    font.isValid() ? font.value<QFont>().resolve(view->font()) : view->font());
                width = std::max(width, cells.horizontalAdvance(index.data().toString()) + padding);
            }
        }
        width += c == 0 ? indent : 0;
        headerView->resizeSection(c, growOnly ? std::max(width, headerView->sectionSize(c)) : width);
    }
}

} // namespace

void fitColumnsToSample(QTableView* view, int sampleRows, bool growOnly)
{
    fitColumns(view, view->horizontalHeader(), sampleRows, growOnly, 0);
}

void fitColumnsToSample(QTreeView* view, int sampleRows, bool growOnly)
{
    // Room for the branch decoration and for one level of rows under a top-level row.
    const int indent = view->rootIsDecorated() ? 2 * view->indentation() : 0;
    fitColumns(view, view->header(), sampleRows, growOnly, indent);
}

} // namespace drasim::ui
