/// @file report.h
/// @brief Everything a step or a tool needs to report what it measured, in one include: the
/// measurement (measurement.h), the text tables (text_table.h), the ladder (ladder.h) and sweep
/// (sweep.h) tables, their CSV (csv.h) and JSON (json.h) forms, and their charts (charts.h).
#pragma once

#include "course/charts.h"
#include "course/csv.h"
#include "course/json.h"
#include "course/ladder.h"
#include "course/measurement.h"
#include "course/sweep.h"
#include "course/text_table.h"
