// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/column_widths.h"

#include <algorithm>

#include <QFontMetrics>
#include <QHeaderView>
#include <QStyle>
#include <QTableView>

namespace drasim::ui {

void fitColumnsToSample(QTableView* view, int sampleRows)
{
    const QAbstractItemModel* model = view->model();
    if (!model)
        return;
    const QFontMetrics cells(view->font());
    const QFontMetrics header(view->horizontalHeader()->font());
    const int padding = 2 * view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 12;
    const int rows = std::min(model->rowCount(), sampleRows);
    const int columns = model->columnCount();
    for (int c = 0; c + 1 < columns; ++c) {
        if (view->isColumnHidden(c))
            continue;
        int width = header.horizontalAdvance(model->headerData(c, Qt::Horizontal).toString()) + padding + 8;
        for (int r = 0; r < rows; ++r)
            width = std::max(width, cells.horizontalAdvance(model->index(r, c).data().toString()) + padding);
        view->setColumnWidth(c, width);
    }
}

} // namespace drasim::ui
