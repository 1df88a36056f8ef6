# Export the R-packaged benchmark tables to plain CSV ("raw" stage).
#
# Usage: Rscript export_r.R OUTDIR [--force] [NAME ...]
#
# Writes OUTDIR/NAME.csv for each table below, straight from the data set as
# the Debian package ships it: numeric columns as numbers, ordered factors as
# their 0-based level index (the level order is the published schema),
# unordered factors as their level string, missing values as an empty field.
# No rows are dropped and nothing is scaled here; prepare.py does the one-hot
# encoding, the label and the split.  Deterministic: same package versions,
# same bytes.

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1) stop("usage: Rscript export_r.R OUTDIR [--force] [NAME ...]")
outdir <- args[1]
force <- "--force" %in% args
only <- setdiff(args[-1], "--force")
dir.create(outdir, recursive = TRUE, showWarnings = FALSE)

# name -> c(R package, data set object)
tables <- list(
  pima       = c("mlbench",   "PimaIndiansDiabetes"),
  dna        = c("mlbench",   "DNA"),
  satellite  = c("mlbench",   "Satellite"),
  letter     = c("mlbench",   "LetterRecognition"),
  shuttle    = c("mlbench",   "Shuttle"),
  spam       = c("kernlab",   "spam"),
  ticdata    = c("kernlab",   "ticdata"),
  churn      = c("modeldata", "mlc_churn"),
  cps1988    = c("AER",       "CPS1988"),
  mpls_stops = c("carData",   "MplsStops")
)
if (length(only) > 0) tables <- tables[intersect(names(tables), only)]

# Columns that are stored as unordered factors but are ordinal by definition
# (ticdata: MGEMLEEF is an age band "20-30" < "30-40" < ...).
ordinal_extra <- list(ticdata = c("MGEMLEEF"))

for (name in names(tables)) {
  dest <- file.path(outdir, paste0(name, ".csv"))
  if (file.exists(dest) && !force) next
  pkg <- tables[[name]][1]; obj <- tables[[name]][2]
  e <- new.env()
  data(list = obj, package = pkg, envir = e)
  df <- as.data.frame(get(obj, envir = e))
  for (col in names(df)) {
    x <- df[[col]]
    if (inherits(x, "POSIXct")) {
      # keep the local wall-clock time of the source (America/Chicago for MplsStops)
      tz <- attr(x, "tzone"); if (is.null(tz) || tz == "") tz <- "UTC"
      df[[col]] <- format(x, "%Y-%m-%d %H:%M:%S", tz = tz)
    } else if (is.ordered(x) || (is.factor(x) && col %in% ordinal_extra[[name]])) {
      df[[col]] <- as.integer(x) - 1L
    } else if (is.factor(x)) {
      df[[col]] <- as.character(x)
    } else if (is.logical(x)) {
      df[[col]] <- as.integer(x)
    }
  }
  tmp <- paste0(dest, ".tmp")
  # 15 significant digits (R's default for write.csv), "." decimal, no row names
  write.csv(df, tmp, row.names = FALSE, na = "", fileEncoding = "UTF-8")
  file.rename(tmp, dest)
  cat(sprintf("raw %-11s %6d x %4d  <- %s::%s\n", name, nrow(df), ncol(df), pkg, obj))
}
