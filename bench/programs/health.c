// health: simulation of a country's health system (BOTS "health" shape). Villages form a tree
// (BRANCH children per village, LEVELS levels below the root); each village has a hospital with
// lists of patients waiting, being assessed, being treated, and sent up to the parent's hospital.
// Each time step runs one task per village: it first spawns the tasks of its child villages and
// waits for them, takes in the patients its children sent up, then advances its own lists and
// draws, for each of its healthy inhabitants, whether they fall ill (from its own random
// stream). Discharged patients go home to their village, which lies in the subtree whose tasks
// have completed. A village's state is only touched by its own task and, after the taskwait, by
// an ancestor's, so the result does not depend on scheduling. Tasks are fine grained (about 100
// random draws and a few patients per village and step).
// Usage: health LEVELS STEPS [CUTOFF] | tiny | small | medium
//   CUTOFF is a tree level: villages at level >= CUTOFF are simulated inside their parent's task.
//   0 = no cut-off (every village is a task).
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#define BRANCH 4
#define POPULATION 100                  // inhabitants per village
static const double kSick = 0.001;      // probability an inhabitant falls ill in a step
static const double kCureHere = 0.70;   // probability an assessed patient is treated locally
static const int kAssessSteps = 2;      // steps of assessment
static const int kTreatSteps = 6;       // steps of treatment

typedef struct Patient {
  long id;
  int time;           // steps spent in the health system
  int time_left;      // steps left in the current stage
  int hosps_visited;  // hospitals that have seen the patient
  struct Village* home;
  struct Patient* next;
} Patient;

typedef struct {
  Patient *head, *tail;
} List;

typedef struct Village {
  long id;
  int level;
  int nchild;
  struct Village* child[BRANCH];
  uint64_t rng;
  long next_patient;
  int population;  // healthy inhabitants
  int personnel, free_personnel;
  List waiting, assess, inside, up;
  long generated, treated, treated_time, treated_hosps;
} Village;

static void usage(void) {
  fprintf(stderr, "usage: health LEVELS STEPS [CUTOFF] | tiny | small | medium\n");
  exit(2);
}

// A pseudo-random number in [0, 1).
static double next_u01(uint64_t* state) { return (double)(splitmix64(state) >> 11) * 0x1.0p-53; }

static void push(List* l, Patient* p) {
  p->next = NULL;
  if (l->tail)
    l->tail->next = p;
  else
    l->head = p;
  l->tail = p;
}

static Patient* take_all(List* l) {
  Patient* h = l->head;
  l->head = l->tail = NULL;
  return h;
}

static Village* build(int level, int levels, long* next_id) {
  Village* v = calloc(1, sizeof(Village));
  if (!v) {
    fprintf(stderr, "health: out of memory\n");
    exit(2);
  }
  v->id = (*next_id)++;
  v->level = level;
  v->rng = 0x1234567ull * (uint64_t)(v->id + 1);
  v->population = POPULATION;
  v->personnel = v->free_personnel = 2 * (1 + levels - level);
  if (level < levels) {
    v->nchild = BRANCH;
    for (int i = 0; i < BRANCH; ++i) v->child[i] = build(level + 1, levels, next_id);
  }
  return v;
}

// One time step of village v and its subtree. par == 0: everything serial, no tasks.
static void sim_village(Village* v, int cutoff, int par) {
  int spawn = par && (cutoff == 0 || v->level + 1 < cutoff);
  for (int i = 0; i < v->nchild; ++i) {
    Village* c = v->child[i];
    if (spawn) {
#pragma omp task firstprivate(c, cutoff)
      sim_village(c, cutoff, 1);
    } else {
      sim_village(c, cutoff, par);
    }
  }
  if (spawn) {
#pragma omp taskwait
  }

  // Patients sent up by the children join the waiting list.
  for (int i = 0; i < v->nchild; ++i)
    for (Patient *p = take_all(&v->child[i]->up), *next; p; p = next) {
      next = p->next;
      p->hosps_visited++;
      push(&v->waiting, p);
    }

  // Treatment: discharged patients go home.
  for (Patient *p = take_all(&v->inside), *next; p; p = next) {
    next = p->next;
    p->time++;
    if (--p->time_left > 0) {
      push(&v->inside, p);
      continue;
    }
    v->free_personnel++;
    v->treated++;
    v->treated_time += p->time;
    v->treated_hosps += p->hosps_visited;
    p->home->population++;
    free(p);
  }

  // Assessment: treat here, or send up (the root treats everybody).
  for (Patient *p = take_all(&v->assess), *next; p; p = next) {
    next = p->next;
    p->time++;
    if (--p->time_left > 0) {
      push(&v->assess, p);
      continue;
    }
    if (v->level == 0 || next_u01(&v->rng) < kCureHere) {
      p->time_left = kTreatSteps;
      push(&v->inside, p);
    } else {
      v->free_personnel++;
      push(&v->up, p);
    }
  }

  // Waiting: start an assessment when somebody is free.
  for (Patient *p = take_all(&v->waiting), *next; p; p = next) {
    next = p->next;
    p->time++;
    if (v->free_personnel > 0) {
      v->free_personnel--;
      p->time_left = kAssessSteps;
      push(&v->assess, p);
    } else {
      push(&v->waiting, p);
    }
  }

  // New patients among the healthy inhabitants.
  for (int i = 0, healthy = v->population; i < healthy; ++i) {
    if (next_u01(&v->rng) >= kSick) continue;
    Patient* p = calloc(1, sizeof(Patient));
    if (!p) {
      fprintf(stderr, "health: out of memory\n");
      exit(2);
    }
    p->id = v->id * 1000000 + v->next_patient++;
    p->hosps_visited = 1;
    p->home = v;
    v->population--;
    v->generated++;
    push(&v->waiting, p);
  }
}

// Order-sensitive digest of the whole tree's statistics and remaining patients.
typedef struct {
  long generated, treated, treated_time, treated_hosps, in_system, healthy;
  uint64_t digest;
} Summary;

static uint64_t mix(uint64_t h, uint64_t x) { return (h ^ x) * 0x100000001B3ull + (h >> 29); }

static void summarize(const Village* v, Summary* s) {
  s->generated += v->generated;
  s->treated += v->treated;
  s->treated_time += v->treated_time;
  s->treated_hosps += v->treated_hosps;
  s->healthy += v->population;
  s->digest = mix(s->digest, (uint64_t)v->population);
  s->digest = mix(s->digest, (uint64_t)v->free_personnel);
  const List* lists[4] = {&v->waiting, &v->assess, &v->inside, &v->up};
  for (int l = 0; l < 4; ++l) {
    s->digest = mix(s->digest, 0xABCDull + (uint64_t)l);
    for (const Patient* p = lists[l]->head; p; p = p->next) {
      s->in_system++;
      s->digest = mix(s->digest, (uint64_t)p->id);
      s->digest = mix(s->digest, ((uint64_t)p->time << 32) ^ ((uint64_t)p->time_left << 16) ^
                                     (uint64_t)p->hosps_visited);
    }
  }
  for (int i = 0; i < v->nchild; ++i) summarize(v->child[i], s);
}

static void destroy(Village* v) {
  for (int i = 0; i < v->nchild; ++i) destroy(v->child[i]);
  List* lists[4] = {&v->waiting, &v->assess, &v->inside, &v->up};
  for (int l = 0; l < 4; ++l)
    for (Patient *p = lists[l]->head, *next; p; p = next) {
      next = p->next;
      free(p);
    }
  free(v);
}

int main(int argc, char** argv) {
  int levels = 0, steps = 0, cutoff = 0;
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    levels = 4, steps = 50;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    levels = 5, steps = 1000;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    levels = 6, steps = 1000;
  } else if (argc == 3 || argc == 4) {
    levels = (int)parse_long(argv[1], 0, 12);
    steps = (int)parse_long(argv[2], 0, 100000000);
    if (argc == 4) cutoff = (int)parse_long(argv[3], 0, 100);
  } else {
    usage();
  }

  long nv = 0, nv_ref = 0;
  Village* root = build(0, levels, &nv);
  Village* ref = build(0, levels, &nv_ref);

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < steps; ++t) {
#pragma omp task firstprivate(root, cutoff)
    sim_village(root, cutoff, 1);
#pragma omp taskwait
  }
  double t1 = omp_get_wtime();

  for (int t = 0; t < steps; ++t) sim_village(ref, cutoff, 0);
  Summary a = {0}, b = {0};
  summarize(root, &a);
  summarize(ref, &b);
  int ok = a.generated == b.generated && a.treated == b.treated &&
           a.treated_time == b.treated_time && a.treated_hosps == b.treated_hosps &&
           a.in_system == b.in_system && a.digest == b.digest &&
           a.healthy == b.healthy && a.generated == a.treated + a.in_system &&
           a.healthy + a.in_system == nv * POPULATION;

  // Tasks per step: the villages at levels below the cut-off (all of them without cut-off).
  long per_step = 0, width = 1;
  for (int l = 0; l <= levels; ++l, width *= BRANCH)
    if (cutoff == 0 || l < cutoff) per_step += width;
  long tasks = per_step * steps;

  printf("health levels=%d steps=%d cutoff=%d villages=%ld patients=%ld threads=%d time=%.6f "
         "tasks=%ld %s\n",
         levels, steps, cutoff, nv, a.generated, omp_get_max_threads(), t1 - t0, tasks,
         ok ? "OK" : "FAILED");
  destroy(root);
  destroy(ref);
  return ok ? 0 : 1;
}
