/*
 * The parser's hot loops, compiled to WebAssembly (npm run build:wasm; see
 * docs/performance.md for why): the line loop for the common tabular shapes, the line
 * loop for the common VCF record, and the sort by rsID with the duplicate rule.
 * Everything else, including every line these loops do not take, stays in TypeScript
 * (table.ts, vcf.ts, sites.ts, collect.ts), which is the reference:
 * the lookup tables come from the TypeScript field parsers, and property tests check
 * that both paths decide every line and every duplicate alike.
 *
 * No libc: plain loops over memory the JavaScript side lays out (core.ts).
 */
#include <stdint.h>
#include <wasm_simd128.h>

/* Filled by core.ts from the TypeScript parsers (fields.ts, tokenize.ts). */
typedef struct {
  uint8_t sep[256];     /* 1: a field separator (SEP_ANY) */
  uint8_t stop[256];    /* a separator or the line feed */
  int8_t chrom1[256];   /* a one-byte chromosome field: its code, or -1 */
  int8_t chrom2[65536]; /* a two-byte chromosome field (first << 8 | second): code or -1 */
  int16_t single[256];  /* a one-allele call (callFromSingle) */
  int16_t pair[65536];  /* a two-allele call (callFromPair) */
  uint8_t base[256];    /* a base letter's allele code (A, C, G, T: 1-4, either case), else 0 */
} tables_t;

/* Shapes, as in table.ts. */
enum { FAST_COMBINED = 1, FAST_SPLIT = 2, FAST_FLEXIBLE = 3 };

/* Results the JavaScript side reads back. */
typedef struct {
  uint32_t records;      /* parse_lines: records written */
  uint32_t internal_ids; /* parse_lines: lines skipped as 23andMe internal ids ("i123") */
  uint32_t kept;         /* finish: markers after the duplicate rule */
  uint32_t duplicates;   /* finish: extra occurrences of an rsID */
  uint32_t conflicting;  /* finish: rsIDs whose called occurrences disagree */
  uint32_t no_calls;     /* finish: kept markers without a call */
  /* finish: the sex evidence of sex.ts (pseudo-autosomal XY markers are not counted) */
  uint32_t x_called, x_het, y_markers, y_called;
  uint32_t merged; /* finish: records read into the call of their site's first (split multi-allelic sites) */
} stats_t;

#define CHROM_X 23
#define CHROM_Y 24

#define LF 0x0a
#define TAB 0x09
#define CR 0x0d

/* Eight bytes from p, unaligned; the first byte in the lowest bits. */
static inline uint64_t load8(const uint8_t *p) {
  uint64_t v;
  __builtin_memcpy(&v, p, 8);
  return v;
}

/*
 * Reads up to 10 decimal digits at *pi into *value, eight at a time (SWAR: no loop over
 * digits), and advances *pi past them. Returns the digit count, or 11 for more than 10.
 */
static inline uint32_t read_digits(const uint8_t *buf, uint32_t *pi, uint64_t *value) {
  uint32_t i = *pi;
  uint64_t t = load8(buf + i) - 0x3030303030303030ull;
  /* High nibble of a byte set: not a digit (a byte below '0' wraps, one above '9' + 6 >= 0x10). */
  uint64_t bad = (t | (t + 0x0606060606060606ull)) & 0xf0f0f0f0f0f0f0f0ull;
  uint32_t n = bad ? (uint32_t)__builtin_ctzll(bad) >> 3 : 8;
  uint64_t v = 0;
  if (n > 0) {
    /* Keep the n digits, move them to the top: the missing leading digits read as zeros. */
    if (n < 8) t <<= 8 * (8 - n);
    t = t * 10 + (t >> 8);
    t = (((t & 0x000000ff000000ffull) * (100 + (1000000ull << 32))) +
         (((t >> 16) & 0x000000ff000000ffull) * (1 + (10000ull << 32)))) >> 32;
    v = t;
  }
  i += n;
  if (n == 8) {
    uint32_t more = 0;
    while ((uint8_t)(buf[i] - '0') < 10 && more < 3) {
      v = v * 10 + (buf[i++] - '0');
      more++;
    }
    n += more;
  }
  *pi = i;
  *value = v;
  return n;
}

/*
 * Reads up to 16 decimal digits at *pi with one 16-byte load (WebAssembly SIMD): the digits
 * are moved to the top lanes (the missing leading digits read as zeros) and combined two,
 * four and eight at a time. Advances *pi past the digits and returns their count (16 for
 * 16 or more: the callers take at most 10).
 */
static inline uint32_t read_digits16(const uint8_t *buf, uint32_t *pi, uint64_t *value) {
  uint32_t i = *pi;
  v128_t d = wasm_i8x16_sub(wasm_v128_load(buf + i), wasm_i8x16_splat('0'));
  uint32_t n = (uint32_t)__builtin_ctz(wasm_i8x16_bitmask(wasm_u8x16_gt(d, wasm_i8x16_splat(9))) | 0x10000);
  /* Lane k takes digit k + n - 16: lanes before the first digit get an index >= 16, so 0. */
  const v128_t iota = wasm_i8x16_make(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  d = wasm_i8x16_swizzle(d, wasm_i8x16_add(iota, wasm_i8x16_splat((int8_t)(n - 16))));
  /* Pairs: the first digit (low byte) times 10 plus the second. */
  v128_t p = wasm_i16x8_add(wasm_i16x8_mul(wasm_v128_and(d, wasm_i16x8_splat(0xff)), wasm_i16x8_splat(10)),
                            wasm_u16x8_shr(d, 8));
  v128_t q = wasm_i32x4_dot_i16x8(p, wasm_i32x4_splat(100 | (1 << 16)));  /* four digits */
  v128_t o = wasm_i32x4_dot_i16x8(wasm_u16x8_narrow_i32x4(q, q), wasm_i32x4_splat(10000 | (1 << 16))); /* eight */
  *value = (uint64_t)(uint32_t)wasm_i32x4_extract_lane(o, 0) * 100000000ull + (uint32_t)wasm_i32x4_extract_lane(o, 1);
  *pi = i + n;
  return n;
}

/* A chromosome field, with an optional "chr", "chr_" or "chr-" prefix; -1 when not one of ours. */
static int chrom_of(const tables_t *t, const uint8_t *b, uint32_t s, uint32_t e) {
  if (e - s > 3 && (b[s] | 0x20) == 'c' && (b[s + 1] | 0x20) == 'h' && (b[s + 2] | 0x20) == 'r') {
    s += 3;
    if (b[s] == '_' || b[s] == '-') s++;
  }
  if (e - s == 1) return t->chrom1[b[s]];
  if (e - s == 2) return t->chrom2[(b[s] << 8) | b[s + 1]];
  return -1; /* "PAR" and anything longer: the TypeScript path decides */
}

/*
 * Parses the lines of buf[start, end) (end is just after a line feed; buf[end] must be
 * readable, and 15 bytes past it) that have the common shape "rs CHR POS GT" or "rs CHR POS A1 A2", writing one
 * 12-byte record per marker: rsID, position, call << 8 | chromosome. With skip_internal,
 * lines whose first field is a 23andMe internal id ("i" and digits) are counted in
 * stats->internal_ids and skipped, as the TypeScript path would skip them (non_rs_id).
 * Stops at the first other line, or when cap records are written, and returns where it
 * stopped: the start of the line to hand to TypeScript (or end).
 */
__attribute__((export_name("parse_lines")))
uint32_t parse_lines(const tables_t *t, const uint8_t *buf, uint32_t start, uint32_t end, int mode, int skip_internal,
                     uint32_t *rec, uint32_t cap, stats_t *stats) {
  const uint8_t *sep = t->sep, *stop = t->stop;
  uint32_t n = 0, skipped = 0, i = start;
  while (i < end && n < cap) {
    uint32_t ls = i;
    uint8_t b = buf[i];
    while (sep[b]) b = buf[++i];
    if (b == LF) { /* a blank line */
      i++;
      continue;
    }
    if ((b | 0x20) != 'r' || (buf[i + 1] | 0x20) != 's') {
      if (skip_internal && (b | 0x20) == 'i' && (uint8_t)(buf[i + 1] - '0') < 10) {
        uint32_t k = i + 1;
        while ((uint8_t)(buf[k] - '0') < 10) k++;
        if (stop[buf[k]]) {
          while (buf[k] != LF) k++;
          skipped++;
          i = k + 1;
          continue;
        }
      }
      i = ls;
      break;
    }
    i += 2;
    uint64_t rs;
    uint32_t digits = read_digits(buf, &i, &rs);
    if (digits == 0 || digits > 10 || rs > 0xffffffffu || rs == 0 || !sep[buf[i]]) {
      i = ls;
      break;
    }
    b = buf[i];
    while (sep[b]) b = buf[++i];
    uint32_t cs = i;
    while (!stop[b]) b = buf[++i];
    if (b == LF) {
      i = ls;
      break;
    }
    int chrom = chrom_of(t, buf, cs, i);
    if (chrom < 0) {
      i = ls;
      break;
    }
    while (sep[b]) b = buf[++i];
    uint64_t pos;
    digits = read_digits(buf, &i, &pos);
    b = buf[i];
    if (digits == 0 || digits > 10 || pos > 0xffffffffu || !sep[b]) {
      i = ls;
      break;
    }
    while (sep[b]) b = buf[++i];
    uint32_t g1 = i;
    while (!stop[b]) b = buf[++i];
    uint32_t g1e = i;
    while (sep[b]) b = buf[++i];
    int call;
    if (b == LF) {
      uint32_t len = g1e - g1;
      if (mode == FAST_SPLIT) call = -1;
      else if (len == 2) call = t->pair[(buf[g1] << 8) | buf[g1 + 1]];
      else if (len == 1 && mode == FAST_COMBINED) call = t->single[buf[g1]];
      else call = -1;
    } else {
      call = -1;
      if (mode != FAST_COMBINED && g1e - g1 == 1) {
        uint32_t g2 = i;
        while (!stop[b]) b = buf[++i];
        if (i - g2 == 1) {
          while (sep[b]) b = buf[++i];
          if (b == LF) call = t->pair[(buf[g1] << 8) | buf[g2]];
        }
      }
    }
    if (call < 0) {
      i = ls;
      break;
    }
    uint32_t *r = rec + 3 * n;
    r[0] = (uint32_t)rs;
    r[1] = (uint32_t)pos;
    r[2] = ((uint32_t)call << 8) | (uint32_t)chrom;
    n++;
    i++;
  }
  stats->records = n;
  stats->internal_ids = skipped;
  return i;
}

/*
 * The VCF loop's state (core.ts lays it out): what one call counted, and the position
 * index's keys with a cursor for each build a file may be in. Byte offsets are fixed:
 * counters 0-31, settings 32-63, last keys 64-79, chromosomes seen 80-111, site
 * entries 112-119.
 */
typedef struct {
  uint32_t records;  /* records written */
  uint32_t lines;    /* lines taken */
  uint32_t sites;    /* sites read (with an index) */
  uint32_t unused;   /* sites without an rsID that no marker uses */
  uint32_t hom_ref;  /* REF/REF calls */
  uint32_t variant;  /* calls with a non-reference allele */
  uint32_t non_rs;   /* lines skipped for want of an rsID (no index) */
  uint32_t entries;  /* site entries written (records at a marker's site, for sites.ts) */
  uint32_t with_sites; /* bit 0: lines are also read as sites (sites.ts); bit 1: a record without ALT may be a reference block;
                          bits 8-15: the sample column read (0: the first; detect.ts) */
  uint32_t builds;     /* builds with keys (0-2) */
  const uint64_t *keys[2]; /* chromosome << 32 | position, ascending */
  uint32_t count[2];
  uint32_t cursor[2];      /* first key at or after last[b] */
  uint64_t last[2];        /* the previous record's key */
  uint8_t chrom_seen[32];
  uint32_t *entry;     /* room for entry_cap site entries of ENTRY_WORDS words */
  uint32_t entry_cap;
} vcf_state_t;

_Static_assert(__builtin_offsetof(vcf_state_t, with_sites) == 32, "vcf.ts's layout");
_Static_assert(__builtin_offsetof(vcf_state_t, last) == 64, "vcf.ts's layout");
_Static_assert(__builtin_offsetof(vcf_state_t, chrom_seen) == 80, "vcf.ts's layout");
_Static_assert(__builtin_offsetof(vcf_state_t, entry) == 112 && sizeof(vcf_state_t) == 120, "vcf.ts's layout");

/*
 * A site entry: a SNV record at a marker's site, which sites.ts reads (vcf.ts hands it
 * over) instead of the whole line going to the TypeScript reader: position, rsID (0: none),
 * and chromosome | REF byte << 8 | call << 16 | non-REF allele called << 24 | REF/REF << 25.
 */
#define ENTRY_WORDS 3

#define ALLELE_DEL 5 /* encoding.ts */
#define ALLELE_INS 6

/*
 * The VCF loop scans with WebAssembly SIMD (-msimd128), sixteen bytes a load: a bit mask
 * of the bytes that are tabs, line feeds or other control bytes, whose lowest set bit is
 * the next one. Loads may read up to 15 bytes past the sentinel line feed (core.ts leaves
 * room after the input window).
 */
static inline uint32_t control_mask(const uint8_t *p) {
  return wasm_i8x16_bitmask(wasm_u8x16_lt(wasm_v128_load(p), wasm_u8x16_splat(0x0e)));
}

/* The first byte at or after i that is below 0x0e (tab, line feed, CR, or another control byte). */
static inline uint32_t next_control(const uint8_t *buf, uint32_t i) {
  for (;;) {
    uint32_t m = control_mask(buf + i);
    if (m) return i + (uint32_t)__builtin_ctz(m);
    i += 16;
  }
}

/* The first line feed at or after i. */
static inline uint32_t next_lf(const uint8_t *buf, uint32_t i) {
  for (;;) {
    uint32_t m = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(buf + i), wasm_i8x16_splat(LF)));
    if (m) return i + (uint32_t)__builtin_ctz(m);
    i += 16;
  }
}

/*
 * Skips three non-empty tab-ended fields from i (QUAL, FILTER, INFO): returns the start
 * of the field after them, or 0 when one is empty or ends otherwise than with a tab (i is
 * never 0 here: a record's CHROM comes first). Most records' three fields fit in one load.
 */
static inline uint32_t skip_three_fields(const uint8_t *buf, uint32_t i) {
  v128_t v = wasm_v128_load(buf + i);
  uint32_t m = wasm_i8x16_bitmask(wasm_u8x16_lt(v, wasm_u8x16_splat(0x0e)));
  uint32_t tabs = wasm_i8x16_bitmask(wasm_i8x16_eq(v, wasm_i8x16_splat(TAB)));
  uint32_t m2 = m & (m - 1), m3 = m2 & (m2 - 1);
  if (m3 != 0) {
    uint32_t first3 = m ^ (m3 & (m3 - 1)); /* the lowest three control bytes */
    /* All tabs, none at the start, no two adjacent (an empty field). */
    if ((first3 & ~tabs) != 0 || (first3 & 1) != 0 || (first3 & (first3 << 1)) != 0) return 0;
    return i + (uint32_t)__builtin_ctz(m3) + 1;
  }
  for (uint32_t f = 0; f < 3; f++) {
    uint32_t fs = i;
    i = next_control(buf, i);
    if (buf[i] != TAB || i == fs) return 0;
    i++;
  }
  return i;
}

/*
 * Whether the INFO field ending at the tab before `next` (the FORMAT field's start) has an
 * END key: scanned back to the tab before it, for records without ALT only.
 */
static int info_has_end(const uint8_t *buf, uint32_t next) {
  uint32_t e = next - 1, s = e;
  while (buf[s - 1] != TAB) s--;
  for (uint32_t k = s; k + 4 <= e; k++)
    if ((k == s || buf[k - 1] == ';') && buf[k] == 'E' && buf[k + 1] == 'N' && buf[k + 2] == 'D' && buf[k + 3] == '=')
      return 1;
  return 0;
}

/* One build's keys and the loop's place in them. */
typedef struct {
  const uint64_t *keys;
  uint32_t n, at; /* at: the first key at or after last */
  uint64_t last;  /* the previous record's key */
  uint64_t next;  /* keys[at], or past every key */
} cursor_t;

#define NO_KEY 0xffffffffffffffffull

/*
 * Whether a marker of this build sits at key. VCFs are sorted by position, so the cursor
 * walks forward through the keys; a record before the previous one (another chromosome
 * order, an unsorted file) is found by binary search and the walk goes on from there.
 */
static inline int at_key(cursor_t *c, uint64_t key) {
  if (key >= c->last && key < c->next) { /* between the same two markers as the previous record: most records */
    c->last = key;
    return 0;
  }
  const uint64_t *keys = c->keys;
  uint32_t n = c->n, j = c->at;
  if (key < c->last) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
      uint32_t mid = (lo + hi) >> 1;
      if (keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    j = lo;
  } else {
    while (j < n && keys[j] < key) j++;
  }
  c->at = j;
  c->last = key;
  c->next = j < n ? keys[j] : NO_KEY;
  return c->next == key;
}

/* An allele index of a GT: 0-9, -1 for ".", or -2 for anything else. */
static inline int gt_allele(uint8_t b) {
  if (b == '.') return -1;
  return (uint8_t)(b - '0') < 10 ? b - '0' : -2;
}

/*
 * Parses the VCF records of buf[start, end) (whole lines; buf[end] and 15 bytes past it
 * readable) that have the common shape, deciding each exactly as vcf.ts and sites.ts do:
 * CHROM (a chromosome of ours), POS, ID "." or one rsID, REF of bases, ALT "." or one allele
 * of bases (a SNV, or an indel written as D/I), non-empty QUAL, FILTER and INFO, FORMAT
 * beginning with GT, and a sample (the first, or the one chosen: vcf_state_t) whose GT is
 * one or two one-digit allele indices or ".". A SNV record at a position the index holds becomes a site entry for sites.ts
 * (st->entry); any other record there is left to TypeScript, as is every other line.
 * Records of an rsID go to rec (as parse_lines writes them; at most cap); the counts go
 * to st. Returns where it stopped: the start of the line to hand to
 * TypeScript (or end).
 */
__attribute__((export_name("parse_vcf_lines")))
uint32_t parse_vcf_lines(const tables_t *t, const uint8_t *buf, uint32_t start, uint32_t end, uint32_t *rec,
                         uint32_t cap, vcf_state_t *st) {
  const uint8_t *base = t->base;
  uint32_t n = 0, lines = 0, sites = 0, unused = 0, hom_ref = 0, variant = 0, non_rs = 0, i = start, ls = start;
  uint32_t entries = 0;
  const uint32_t with_sites = st->with_sites & 1, builds = st->builds, entry_cap = st->entry_cap;
  const uint32_t alt_less_blocks = st->with_sites & 2;
  const uint32_t sample_column = (st->with_sites >> 8) & 0xff;
  uint32_t *entry = st->entry;
  /* The cursors and the chromosomes seen live in locals: rec's stores could alias st. */
  cursor_t c0 = {st->keys[0], st->count[0], st->cursor[0], st->last[0], NO_KEY};
  cursor_t c1 = {st->keys[1], st->count[1], st->cursor[1], st->last[1], NO_KEY};
  if (builds > 0 && c0.at < c0.n) c0.next = c0.keys[c0.at];
  if (builds > 1 && c1.at < c1.n) c1.next = c1.keys[c1.at];
  uint32_t seen = 0;
  /*
   * The previous record's CHROM and FORMAT fields with the tab after each, as masked words:
   * most records repeat both, and a record whose bytes match them has the same field
   * (the tab ends it where it ended before), so neither is scanned or read again.
   */
  uint64_t chrom_word = 0, chrom_mask = 0;
  uint32_t chrom_len = 0; /* 0: nothing cached */
  int chrom_code = -1;
  uint64_t format_word[2] = {0, 0}, format_mask[2] = {0, 0};
  uint32_t format_len = 0;
  while (i < end) {
    ls = i;
    if (buf[i] == LF) { /* a blank line */
      i++;
      continue;
    }
    int chrom;
    if (chrom_len != 0 && (load8(buf + ls) & chrom_mask) == chrom_word) {
      chrom = chrom_code;
      i = ls + chrom_len;
    } else {
      i = next_control(buf, i);
      if (buf[i] != TAB) goto other;
      chrom = chrom_of(t, buf, ls, i);
      if (chrom < 0) goto other;
      i++;
      chrom_len = i - ls <= 8 ? i - ls : 0;
      chrom_mask = chrom_len == 8 ? ~0ull : (1ull << (8 * chrom_len)) - 1;
      chrom_word = load8(buf + ls) & chrom_mask;
      chrom_code = chrom;
    }
    uint64_t pos;
    uint32_t digits = read_digits16(buf, &i, &pos);
    if (digits == 0 || digits > 10 || pos > 0xffffffffu || buf[i] != TAB) goto other;
    i++;
    uint64_t rs = 0; /* 0: no rsID (ID ".") */
    if (buf[i] == '.' && buf[i + 1] == TAB) {
      i += 2;
    } else if ((buf[i] | 0x20) == 'r' && (buf[i + 1] | 0x20) == 's') {
      i += 2;
      digits = read_digits16(buf, &i, &rs);
      if (digits == 0 || digits > 10 || rs > 0xffffffffu || rs == 0 || buf[i] != TAB) goto other;
      i++;
      if (n >= cap) goto other;
    } else {
      goto other;
    }
    uint32_t ref = i;
    while (base[buf[i]]) i++;
    uint32_t ref_len = i - ref;
    if (ref_len == 0 || buf[i] != TAB) goto other;
    i++;
    uint32_t alt = i, alt_len = 0, alleles = 1;
    if (buf[i] == '.' && buf[i + 1] == TAB) {
      i += 2;
      if (ref_len != 1) goto other; /* one allele of several bases: not a genotype vcf.ts reads */
    } else {
      while (base[buf[i]]) i++;
      alt_len = i - alt;
      if (alt_len == 0 || buf[i] != TAB) goto other;
      if (alt_len == ref_len && ref_len != 1) goto other; /* a multi-base substitution */
      i++;
      alleles = 2;
    }
    i = skip_three_fields(buf, i); /* QUAL, FILTER, INFO */
    if (i == 0) goto other;
    if (alt_less_blocks && alleles == 1 && info_has_end(buf, i)) goto other; /* a reference block: vcf.ts reads it */
    if (format_len != 0 && (load8(buf + i) & format_mask[0]) == format_word[0] &&
        (load8(buf + i + 8) & format_mask[1]) == format_word[1]) {
      i += format_len;
    } else {
      uint32_t fs = i;
      if (buf[i] != 'G' || buf[i + 1] != 'T' || (buf[i + 2] != ':' && buf[i + 2] != TAB)) goto other;
      i = next_control(buf, i + 2);
      if (buf[i] != TAB) goto other;
      i++;
      format_len = i - fs <= 16 ? i - fs : 0;
      format_mask[0] = format_len >= 8 ? ~0ull : (1ull << (8 * format_len)) - 1;
      format_mask[1] = format_len >= 16 ? ~0ull : format_len <= 8 ? 0 : (1ull << (8 * (format_len - 8))) - 1;
      format_word[0] = load8(buf + fs) & format_mask[0];
      format_word[1] = load8(buf + fs + 8) & format_mask[1];
    }
    for (uint32_t k = sample_column; k != 0; k--) { /* the samples before the one read; an empty one: vcf.ts's */
      if (buf[i] == TAB) goto other;
      i = next_control(buf, i);
      if (buf[i] != TAB) goto other;
      i++;
    }
    int a1 = gt_allele(buf[i]), a2 = -2;
    if (a1 == -2 || a1 >= (int)alleles) goto other;
    i++;
    if (buf[i] == '/' || buf[i] == '|') {
      a2 = gt_allele(buf[i + 1]);
      if (a2 == -2 || a2 >= (int)alleles) goto other;
      i += 2;
    }
    uint8_t b = buf[i];
    if (b != ':' && b != TAB && b != LF && b != CR) goto other;
    int no_call = a1 == -1 || a2 == -1;
    uint32_t non_ref = a1 > 0 || a2 > 0;
    int at_marker = 0;
    if (with_sites) {
      uint64_t key = ((uint64_t)chrom << 32) | pos;
      int hit = builds > 0 && at_key(&c0, key);
      hit |= builds > 1 && at_key(&c1, key);
      if (hit) {
        /*
         * A marker's site: a SNV record (or one of REF alone) becomes a site entry, which
         * sites.ts reads as vcf.ts's line() would have it read; an indel, whose alleles
         * indels.ts compares, and a full entry buffer go to the TypeScript reader.
         */
        if (ref_len != 1 || alt_len > 1 || entries >= entry_cap) goto other;
        at_marker = 1;
      } else {
        sites++;
        seen |= 1u << chrom;
        /* Counted without branches: the calls of a file alternate unpredictably. */
        uint32_t called = !no_call;
        variant += called & non_ref;
        hom_ref += called & !non_ref;
        unused += rs == 0;
      }
    } else if (rs == 0) {
      non_rs++;
    }
    if (rs != 0 || at_marker) {
      uint32_t call = 0;
      if (!no_call) {
        uint32_t c1, c2 = 0;
        if (alleles == 1 || alt_len == ref_len) {
          c1 = base[buf[a1 ? alt : ref]];
          if (a2 >= 0) c2 = base[buf[a2 ? alt : ref]];
        } else {
          /* An indel: the shorter allele is D, the longer I. */
          uint32_t del_is_alt = alt_len < ref_len;
          c1 = (uint32_t)a1 == del_is_alt ? ALLELE_DEL : ALLELE_INS;
          if (a2 >= 0) c2 = (uint32_t)a2 == del_is_alt ? ALLELE_DEL : ALLELE_INS;
        }
        call = (c1 << 4) | c2;
      }
      /* A SNV's REF, for reading a multi-allelic site written one ALT a line (merge_split). */
      uint32_t snv_ref = ref_len == 1 && alt_len <= 1 ? base[buf[ref]] : 0;
      if (at_marker) {
        uint32_t *e = entry + ENTRY_WORDS * entries++;
        e[0] = (uint32_t)pos;
        e[1] = (uint32_t)rs;
        e[2] = (uint32_t)chrom | (uint32_t)buf[ref] << 8 | call << 16 | (!no_call && non_ref) << 24 |
               (!no_call && !non_ref) << 25;
      }
      if (rs != 0) {
        uint32_t *r = rec + 3 * n;
        r[0] = (uint32_t)rs;
        r[1] = (uint32_t)pos;
        r[2] = snv_ref << 16 | (call << 8) | (uint32_t)chrom;
        n++;
      }
    }
    lines++;
    i = next_lf(buf, i) + 1;
  }
  goto done;
other:
  i = ls;
done:
  st->cursor[0] = c0.at;
  st->last[0] = c0.last;
  st->cursor[1] = c1.at;
  st->last[1] = c1.last;
  for (uint32_t k = 0; k < 32; k++)
    if (seen >> k & 1) st->chrom_seen[k] = 1;
  st->records = n;
  st->lines = lines;
  st->sites = sites;
  st->unused = unused;
  st->hom_ref = hom_ref;
  st->variant = variant;
  st->non_rs = non_rs;
  st->entries = entries;
  return i;
}

typedef struct {
  uint32_t rs, pos, cc;
} record_t;

/* The digit of the whole-array sort (under BUCKETED_FROM records), and the widest digit of a bucket's sort. */
#define DIGIT 8
#define MAX_DIGIT 11
/* The first digit of the large-input sort over the rsIDs' range. */
#define TOP_BITS 11
#define TOP_RADIX (1u << TOP_BITS)
/*
 * counts[]: the LSD passes' histograms (at most two of MAX_DIGIT bits, or four of DIGIT),
 * then the buckets of the large-input sort, then a histogram of the rsIDs' top 16 bits.
 */
#define TOP_AT (4u << MAX_DIGIT)
#define HIST_AT (TOP_AT + TOP_RADIX)
#define HIST_RADIX 65536u
/* Below this many records the whole array stays in cache: four LSD passes over it. */
#define BUCKETED_FROM (1u << 16)
#define INSERTION_BELOW 32

/*
 * One stable LSD pass over src[0, n) by the `digit`-bit digit at shift, into dst, with
 * counts c (the digit's histogram). Returns 0 when every record has the same digit
 * (nothing moved).
 */
static uint32_t lsd_pass(const record_t *src, record_t *dst, uint32_t n, uint32_t *c, uint32_t shift, uint32_t digit) {
  uint32_t sum = 0, mask = (1u << digit) - 1;
  for (uint32_t d = 0; d <= mask; d++) {
    uint32_t x = c[d];
    if (x == n) return 0;
    c[d] = sum;
    sum += x;
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t at = c[(src[i].rs >> shift) & mask]++;
    dst[at] = src[i];
  }
  return 1;
}

/*
 * Sorts n records by their low `bits` bits of rsID, stably: insertion sort in r for a few,
 * else LSD passes of at most `widest` bits between r and x (room for n more). Returns the
 * buffer that holds the result (r or x). counts: room for the passes' histograms (TOP_AT words).
 */
static record_t *sort_low(record_t *r, record_t *x, uint32_t n, uint32_t bits, uint32_t widest, uint32_t *counts) {
  if (n < INSERTION_BELOW) {
    for (uint32_t i = 1; i < n; i++) {
      record_t v = r[i];
      uint32_t j = i;
      while (j > 0 && r[j - 1].rs > v.rs) {
        r[j] = r[j - 1];
        j--;
      }
      r[j] = v;
    }
    return r;
  }
  uint32_t passes = (bits + widest - 1) / widest;
  uint32_t digit = (bits + passes - 1) / passes, radix = 1u << digit, mask = radix - 1;
  for (uint32_t d = 0; d < passes * radix; d++) counts[d] = 0;
  if (passes == 2) { /* a bucket of the large-input sort: both digits in one unrolled loop */
    uint32_t *high = counts + radix;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t k = r[i].rs;
      counts[k & mask]++;
      high[(k >> digit) & mask]++;
    }
  } else {
    for (uint32_t i = 0; i < n; i++) {
      uint32_t k = r[i].rs;
      for (uint32_t p = 0; p < passes; p++) counts[p * radix + ((k >> (p * digit)) & mask)]++;
    }
  }
  record_t *src = r, *dst = x;
  for (uint32_t p = 0; p < passes; p++) {
    if (!lsd_pass(src, dst, n, counts + p * radix, p * digit, digit)) continue;
    record_t *t = src;
    src = dst;
    dst = t;
  }
  return src;
}

static int same_call(uint32_t a, uint32_t b) {
  return a == b || ((((a & 0xf) << 4) | (a >> 4)) == b);
}

/*
 * The call of a site written as several records, one ALT each (bcftools norm -m-: 1/2
 * becomes 1/0 and 0/1, 2/2 becomes 0/0 and 1/1), from the call kept so far and the next
 * record's, both read at the same position against the same single-base REF `ref`: the
 * non-reference alleles of both, REF filling the rest. 0 when they cannot be one site's
 * (no REF, not single bases, another ploidy, the same ALT in both, more ALTs than copies).
 * mergeSplitCalls in split-sites.ts is the reference.
 */
static uint32_t merge_split(uint32_t kept, uint32_t next, uint32_t ref) {
  if (ref == 0 || kept == 0 || next == 0) return 0;
  uint32_t k1 = kept >> 4, k2 = kept & 0xf, n1 = next >> 4, n2 = next & 0xf;
  if ((k2 == 0) != (n2 == 0) || k1 > 4 || k2 > 4 || n1 > 4 || n2 > 4) return 0;
  uint32_t copies = k2 == 0 ? 1 : 2, alt[4], m = 0;
  if (k1 != ref) alt[m++] = k1;
  if (k2 != 0 && k2 != ref) alt[m++] = k2;
  uint32_t from_kept = m;
  if (n1 != ref) alt[m++] = n1;
  if (n2 != 0 && n2 != ref) alt[m++] = n2;
  if (m > copies) return 0;
  for (uint32_t i = from_kept; i < m; i++)
    for (uint32_t j = 0; j < from_kept; j++)
      if (alt[i] == alt[j]) return 0;
  if (m == from_kept) return kept; /* nothing to add: the kept call stands as written */
  while (m < copies) alt[m++] = ref;
  return copies == 1 ? alt[0] << 4 : alt[0] << 4 | alt[1];
}

/* The kept markers' columns (n long each) and the duplicate rule's state, carried from bucket to bucket. */
typedef struct {
  uint32_t *rs, *pos;
  uint8_t *calls, *chroms;
  int64_t o, prev;
  uint32_t chosen, counted, duplicates, conflicting;
  uint32_t chosen_ref, merged; /* the kept call's SNV REF (0: none); records merged into a call (merge_split) */
  /* The no-calls and the sex evidence (sex.ts) of the kept markers before counted_to. */
  uint32_t counted_to, no_calls, x_called, x_het, y_markers, y_called;
} kept_t;

/* Counts the no-calls and the sex evidence of the kept markers from counted_to up to m, whose calls are final. */
static void count_kept(kept_t *k, uint32_t m) {
  const uint8_t *calls = k->calls, *chroms = k->chroms;
  uint32_t no_calls = 0, x_called = 0, x_het = 0, y_markers = 0, y_called = 0;
  for (uint32_t j = k->counted_to; j < m; j++) {
    uint32_t call = calls[j], c = chroms[j];
    if (call == 0) no_calls++;
    if (c == CHROM_X && call != 0) {
      x_called++;
      uint32_t a2 = call & 0xf;
      if (a2 != 0 && a2 != (call >> 4)) x_het++;
    } else if (c == CHROM_Y) {
      y_markers++;
      if (call != 0) y_called++;
    }
  }
  k->counted_to = m;
  k->no_calls += no_calls;
  k->x_called += x_called;
  k->x_het += x_het;
  k->y_markers += y_markers;
  k->y_called += y_called;
}

/* Applies the duplicate rule of collect.ts to s[0, n), sorted by rsID and following the records kept so far. */
static void keep(kept_t *k, const record_t *s, uint32_t n) {
  uint32_t *rs = k->rs, *pos = k->pos;
  uint8_t *calls = k->calls, *chroms = k->chroms;
  int64_t o = k->o, prev = k->prev;
  uint32_t chosen = k->chosen, counted = k->counted, duplicates = k->duplicates, conflicting = k->conflicting;
  uint32_t chosen_ref = k->chosen_ref, merged = k->merged;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t r = s[j].rs, v = s[j].cc, call = (v >> 8) & 0xff, ref = v >> 16;
    if ((int64_t)r != prev) {
      o++;
      prev = r;
      rs[o] = r;
      pos[o] = s[j].pos;
      calls[o] = (uint8_t)call;
      chroms[o] = (uint8_t)v;
      chosen = call;
      chosen_ref = ref;
      counted = 0;
      continue;
    }
    if (call == 0) {
      duplicates++;
      continue;
    }
    if (chosen == 0) {
      duplicates++;
      pos[o] = s[j].pos;
      calls[o] = (uint8_t)call;
      chroms[o] = (uint8_t)v;
      chosen = call;
      chosen_ref = ref;
      continue;
    }
    if (same_call(call, chosen)) {
      duplicates++;
      continue;
    }
    uint32_t site = ref == chosen_ref && s[j].pos == pos[o] && (uint8_t)v == chroms[o];
    uint32_t both = site ? merge_split(chosen, call, ref) : 0;
    if (both != 0) {
      merged++;
      calls[o] = (uint8_t)both;
      chosen = both;
      continue;
    }
    duplicates++;
    if (!counted) {
      conflicting++;
      counted = 1;
    }
  }
  k->chosen_ref = chosen_ref;
  k->merged = merged;
  k->o = o;
  k->prev = prev;
  k->chosen = chosen;
  k->counted = counted;
  k->duplicates = duplicates;
  k->conflicting = conflicting;
}

/* Columns of n markers at base: rsids (u32), positions (u32), calls (u8), chromosomes (u8). */
static kept_t columns_at(uint8_t *base, uint32_t n) {
  kept_t k = {0};
  k.rs = (uint32_t *)base;
  k.pos = k.rs + n;
  k.calls = (uint8_t *)(k.pos + n);
  k.chroms = k.calls + n;
  k.o = -1;
  k.prev = -1;
  return k;
}

/*
 * The large-input sort (a sequencing VCF with rsIDs: 4.5 million records, 54 MB, past the
 * caches), with the duplicate rule applied bucket by bucket. One pass by the top TOP_BITS
 * bits of the rsIDs' range [lo, hi] (bucket sizes from the first pass's histogram) scatters
 * a into b, in buckets that fit in cache (~2,400 records for 4.5 million rsIDs spread over
 * 10^9); each bucket is sorted there by its low bits, in at most two passes of MAX_DIGIT
 * bits, and its markers kept into the columns while still in cache, so the records cross
 * main memory three times (written, scattered, kept) and the columns once. The columns
 * take the first 10n bytes of a, whose records are all in b by then; a bucket is sorted
 * with the remaining 2n bytes as its scratch, or, when larger than that (many records of
 * a few rsIDs), beforehand with a's own room, before any column is written.
 */
static void sort_and_keep(record_t *a, record_t *b, uint32_t n, uint32_t lo, uint32_t hi, uint32_t *counts,
                          kept_t *k) {
  uint32_t span = hi - lo, shift = span >> TOP_BITS ? 32 - TOP_BITS - (uint32_t)__builtin_clz(span) : 0;
  lo &= ~((1u << shift) - 1); /* buckets start at a multiple of 2^shift: their low bits are the rsIDs' own */
  if ((hi - lo) >> shift >= TOP_RADIX) {
    shift++;
    lo &= ~((1u << shift) - 1);
  }
  uint32_t *top = counts + TOP_AT;
  for (uint32_t d = 0; d < TOP_RADIX; d++) top[d] = 0;
  if (shift >= 16) {
    const uint32_t *hist = counts + HIST_AT;
    for (uint32_t h = lo >> 16; h <= hi >> 16; h++) top[(h - (lo >> 16)) >> (shift - 16)] += hist[h];
  } else {
    for (uint32_t i = 0; i < n; i++) top[(a[i].rs - lo) >> shift]++;
  }
  uint32_t sum = 0;
  for (uint32_t d = 0; d < TOP_RADIX; d++) {
    uint32_t x = top[d];
    top[d] = sum;
    sum += x;
  }
  /* The scatter advances each bucket's start to its end: bucket d ends up as [top[d - 1], top[d]). */
  for (uint32_t i = 0; i < n; i++) b[top[(a[i].rs - lo) >> shift]++] = a[i];
  uint32_t scratch_at = (10 * n + 63) & ~63u;
  record_t *scratch = (record_t *)((uint8_t *)a + scratch_at);
  uint32_t room = (12 * n - scratch_at) / sizeof(record_t);
  uint32_t from = 0;
  for (uint32_t d = 0; d < TOP_RADIX; d++) {
    uint32_t to = top[d], m = to - from;
    if (m > room && shift > 0) {
      record_t *at = sort_low(b + from, a + from, m, shift, MAX_DIGIT, counts);
      if (at != b + from) __builtin_memcpy(b + from, at, (unsigned long)m * sizeof(record_t));
    }
    from = to;
  }
  *k = columns_at((uint8_t *)a, n);
  from = 0;
  for (uint32_t d = 0; d < TOP_RADIX; d++) {
    uint32_t to = top[d], m = to - from;
    record_t *at = b + from;
    if (m > 1 && m <= room && shift > 0) at = sort_low(b + from, scratch, m, shift, MAX_DIGIT, counts);
    keep(k, at, m);
    /* Every occurrence of an rsID is in its bucket: the markers kept so far are final. */
    count_kept(k, (uint32_t)(k->o + 1));
    from = to;
  }
}

/*
 * Sorts the n records in a (b: room for n more) by rsID, stably (so file order survives
 * among duplicates), and applies the duplicate rule of collect.ts: for each rsID the first
 * occurrence with a call wins. Sorted input is left where it is; up to BUCKETED_FROM
 * records, an LSD radix sort on four 8-bit digits (each pass one stream of reads and 256
 * streams of writes that stay in cache; a digit the same for every record is skipped);
 * more, sort_and_keep. Writes the kept markers as four columns at the returned address:
 * rsids (u32), positions (u32), calls (u8), chromosomes (u8), each n long, of which
 * stats->kept are used; and counts the no-calls and the sex evidence (sex.ts) of the kept
 * markers. counts: HIST_AT + HIST_RADIX words.
 */
__attribute__((export_name("finish")))
uint8_t *finish(record_t *a, record_t *b, uint32_t n, uint32_t *counts, stats_t *stats) {
  /* One pass: whether the records are sorted already, the rsIDs' range, and (for the large-input sort) their top 16 bits' histogram. */
  uint32_t sorted = 1, lo = 0xffffffffu, hi = 0;
  uint32_t *hist = counts + HIST_AT;
  int histo = n >= BUCKETED_FROM;
  if (histo) for (uint32_t d = 0; d < HIST_RADIX; d++) hist[d] = 0;
  uint32_t last = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = a[i].rs;
    lo = r < lo ? r : lo;
    hi = r > hi ? r : hi;
    sorted &= r >= last;
    last = r;
    if (histo) hist[r >> 16]++;
  }
  kept_t k;
  uint8_t *base;
  if (sorted || n < BUCKETED_FROM) {
    record_t *s = sorted ? a : sort_low(a, b, n, 32, DIGIT, counts);
    base = (uint8_t *)(s == a ? b : a);
    k = columns_at(base, n);
    keep(&k, s, n);
  } else {
    base = (uint8_t *)a;
    sort_and_keep(a, b, n, lo, hi, counts, &k);
  }
  uint32_t m = (uint32_t)(k.o + 1);
  if (k.counted_to < m) count_kept(&k, m);
  stats->kept = m;
  stats->duplicates = k.duplicates;
  stats->conflicting = k.conflicting;
  stats->no_calls = k.no_calls;
  stats->x_called = k.x_called;
  stats->x_het = k.x_het;
  stats->y_markers = k.y_markers;
  stats->y_called = k.y_called;
  stats->merged = k.merged;
  return base;
}
