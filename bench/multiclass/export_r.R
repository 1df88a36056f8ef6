# The multiclass benchmark's extra R tables (docs/design/MULTICLASS_MEASURED.md), in bench/datasets/export_r.R's
# format: DIR/NAME.csv, write.csv, factor features as integer codes (their level index − 1),
# the class as its level name, column names in lower case and unique. Usage: Rscript --vanilla export_r.R DIR
args <- commandArgs(trailingOnly = TRUE)
outdir <- args[1]
dir.create(outdir, recursive = TRUE, showWarnings = FALSE)
tables <- list(vehicle = c("mlbench", "Vehicle", "Class"), vowel = c("mlbench", "Vowel", "Class"),
               glass = c("mlbench", "Glass", "Type"))
for (name in names(tables)) {
  pkg <- tables[[name]][1]; obj <- tables[[name]][2]; label <- tables[[name]][3]
  e <- new.env()
  data(list = obj, package = pkg, envir = e)
  df <- as.data.frame(get(obj, envir = e))
  for (col in names(df)) {
    x <- df[[col]]
    if (col == label) df[[col]] <- as.character(x)
    else if (is.factor(x)) df[[col]] <- as.integer(x) - 1L
  }
  # Lower case, unique (Vehicle has Sc.Var.maxis and Sc.Var.Maxis).
  names(df) <- make.unique(tolower(names(df)), sep = "_")
  dest <- file.path(outdir, paste0(name, ".csv"))
  write.csv(df, dest, row.names = FALSE, na = "", fileEncoding = "UTF-8")
  cat(sprintf("raw %-8s %5d x %3d <- %s::%s\n", name, nrow(df), ncol(df), pkg, obj))
}
