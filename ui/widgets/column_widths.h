// SPDX-License-Identifier: Apache-2.0
#pragma once

class QTableView;
class QTreeView;

namespace drasim::ui {

/// Sizes a table's columns to its header and `sampleRows` rows spread over the model. QTableView's
/// resizeColumnsToContents lays out the text of up to a thousand rows per column (hundreds of
/// milliseconds on the UI thread for a run's events); a sample of rows gives the same widths for
/// columns whose values look alike. The last column is left to stretch. `growOnly` keeps columns
/// at least as wide as they are: a table that follows a time cursor refits as its rows change
/// (an empty table at the end of a run leaves header widths) without jumping narrower and back.
void fitColumnsToSample(QTableView* view, int sampleRows = 40, bool growOnly = false);
/// The same for a tree: its top-level rows are sampled, and the first column also makes room
/// for the indentation of the rows under them.
void fitColumnsToSample(QTreeView* view, int sampleRows = 40, bool growOnly = false);

} // namespace drasim::ui
