# Export real tables AS SHIPPED by Debian's R packages to CSV (the raw-tables benchmark).
#
# Usage: Rscript --vanilla export.R OUTDIR [NAME ...]
#
# For each table, two files, both written by R's own write.csv (what a user's export looks like):
#   OUTDIR/NAME.csv           write.csv(df, row.names = FALSE)
#   OUTDIR/NAME.rownames.csv  write.csv(df)  -- R's default: a first column with header "" that
#                             holds the row names (not always 1..n: attrition's skip numbers)
# Nothing is converted: factors and ordered factors are written as their level strings (quoted),
# logicals as TRUE/FALSE, missing values as R writes them (NA, unquoted), numbers with R's
# 15 significant digits. No row is dropped, no column one-hot encoded, nothing scaled.
# Also OUTDIR/NAME.columns.json: R's view of every column (class, ordered, levels, NA count) and
# of the row names, which split.py folds into the manifest. Deterministic: same package
# versions, same bytes.

suppressPackageStartupMessages(library(jsonlite))
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1) stop("usage: Rscript export.R OUTDIR [NAME ...]")
outdir <- args[1]
only <- args[-1]
dir.create(outdir, recursive = TRUE, showWarnings = FALSE)

# name -> c(R package, data set object). The label, classes and roles are in split.py.
tables <- list(
  credit_data  = c("modeldata", "credit_data"),
  attrition    = c("modeldata", "attrition"),
  mlc_churn    = c("modeldata", "mlc_churn"),
  penguins     = c("modeldata", "penguins"),
  wa_churn     = c("modeldata", "wa_churn"),
  HouseVotes84 = c("mlbench",   "HouseVotes84"),
  BreastCancer = c("mlbench",   "BreastCancer"),
  Soybean      = c("mlbench",   "Soybean")
)
if (length(only) > 0) tables <- tables[intersect(names(tables), only)]

write_atomic <- function(df, dest, row.names) {
  tmp <- paste0(dest, ".tmp")
  # write.csv's defaults otherwise: quote = TRUE (strings and factors quoted), na = "NA",
  # "." decimal, eol "\n", 15 significant digits.
  write.csv(df, tmp, row.names = row.names, fileEncoding = "UTF-8")
  file.rename(tmp, dest)
}

for (name in names(tables)) {
  pkg <- tables[[name]][1]; obj <- tables[[name]][2]
  e <- new.env()
  data(list = obj, package = pkg, envir = e)
  df <- get(obj, envir = e)
  shipped_class <- class(df)
  df <- as.data.frame(df)  # tibbles (modeldata) -> data.frame; columns unchanged
  cols <- lapply(names(df), function(col) {
    x <- df[[col]]
    list(name = col,
         r_class = class(x),
         ordered = is.ordered(x),
         levels = if (is.factor(x)) levels(x) else NULL,
         na = sum(is.na(x)),
         distinct = length(unique(x[!is.na(x)])))
  })
  rn <- rownames(df)
  meta <- list(name = name, package = pkg, object = obj, shipped_class = shipped_class,
               rows = nrow(df), columns = cols,
               row_names = list(sequential = identical(rn, as.character(seq_len(nrow(df)))),
                                first = head(rn, 5)),
               r_version = R.version.string,
               package_version = as.character(packageVersion(pkg)))
  write_atomic(df, file.path(outdir, paste0(name, ".csv")), FALSE)
  write_atomic(df, file.path(outdir, paste0(name, ".rownames.csv")), TRUE)
  writeLines(toJSON(meta, auto_unbox = TRUE, pretty = TRUE, null = "null"),
             file.path(outdir, paste0(name, ".columns.json")))
  cat(sprintf("raw %-13s %5d x %3d  <- %s::%s\n", name, nrow(df), ncol(df), pkg, obj))
}
