#!/usr/bin/env python3
# Regenerates the reference orders of tests/cpp/ordering_test.cpp: run `python3 scripts/ordering_reference.py`.
# Independent reference of the orderings, straight from the thesis formulas (floats/fractions).
import math, random
from fractions import Fraction as F

def plural(votes_rows, l):  # votes_rows: list of class lists per row
    out=[]
    for vs in votes_rows:
        cnt=[0]*l
        for v in vs: cnt[v]+=1
        out.append(max(range(l), key=lambda c:(cnt[c],-c)))
    return out

def acc_of(S, V, y, l):
    N=len(y)
    pred=plural([[V[t][r] for t in S] for r in range(N)], l)
    return sum(pred[r]==y[r] for r in range(N))

def argbest(cands, key):  # maximise key, ties lowest index; returns (k, gap to second)
    best=None
    for k in cands:
        v=key(k)
        if best is None or v>best[1]: best=(k,v)
    return best[0]

def reduce_error(V,y,l):
    T=len(V); S=[]
    while len(S)<T:
        S.append(argbest([k for k in range(T) if k not in S], lambda k: acc_of(S+[k],V,y,l)))
    return S

def lowest_error(V,y):
    return argbest(range(len(V)), lambda k: sum(V[k][r]==y[r] for r in range(len(y))))

def complementarity(V,y,l):
    T=len(V); N=len(y); S=[lowest_error(V,y)]
    while len(S)<T:
        H=plural([[V[t][r] for t in S] for r in range(N)], l)
        S.append(argbest([k for k in range(T) if k not in S],
            lambda k: sum(1 for r in range(N) if V[k][r]==y[r] and H[r]!=y[r])))
    return S

def margins(V,y): return [[1 if V[t][r]==y[r] else -1 for r in range(len(y))] for t in range(len(V))]

def mdm(V,y,p):
    c=margins(V,y); T=len(V); N=len(y); S=[]
    while len(S)<T:
        def negdist(k):
            tot=[(c[k][r]+sum(c[s][r] for s in S))/T for r in range(N)]
            return -math.sqrt(sum((p-tot[r])**2 for r in range(N)))
        S.append(argbest([k for k in range(T) if k not in S], negdist))
    return S

def orientation(V,y):
    c=margins(V,y); T=len(V); N=len(y)
    cens=[sum(c[t][r] for t in range(T))/T for r in range(N)]
    o=[1.0]*N
    n2=sum(x*x for x in cens)
    lam = -sum(o[r]*cens[r] for r in range(N))/n2 if n2>0 else 0.0
    cref=[o[r]+lam*cens[r] for r in range(N)]
    nref=math.sqrt(sum(x*x for x in cref))
    ang=[math.acos(max(-1,min(1,sum(cref[r]*c[k][r] for r in range(N))/(nref*math.sqrt(N))))) for k in range(T)]
    return sorted(range(T), key=lambda k:(round(ang[k],12),k))

def boosting(V,y):
    T=len(V); N=len(y); w=[F(1,N)]*N; S=[]
    while len(S)<T:
        eps=lambda k: sum(w[r] for r in range(N) if V[k][r]!=y[r])
        k=argbest([k for k in range(T) if k not in S], lambda k:-eps(k))
        e=eps(k); S.append(k)
        if e==0 or e>=F(1,2): w=[F(1,N)]*N; continue
        w=[w[r]/(2*e) if V[k][r]!=y[r] else w[r]/(2*(1-e)) for r in range(N)]
    return S

def kappa(a,b,l):
    m=len(a)
    th1=F(sum(1 for i in range(m) if a[i]==b[i]),m)
    th2=sum(F(sum(1 for x in a if x==c),m)*F(sum(1 for x in b if x==c),m) for c in range(l))
    if th2==1: return F(1)
    return (th1-th2)/(1-th2)

def kappa_order(V,y,l):
    T=len(V); N=len(y); S=[lowest_error(V,y)]
    while len(S)<T:
        H=plural([[V[t][r] for t in S] for r in range(N)], l)
        S.append(argbest([k for k in range(T) if k not in S], lambda k:-kappa(V[k],H,l)))
    return S

def greedy_sdp(V,y):
    T=len(V); N=len(y)
    wrong=[[V[t][r]!=y[r] for r in range(N)] for t in range(T)]
    G=[[sum(1 for r in range(N) if wrong[i][r] and wrong[j][r]) for j in range(T)] for i in range(T)]
    S=[]
    while len(S)<T:
        def neg(k):
            x=S+[k]
            return -sum(G[i][j] for i in x for j in x)
        S.append(argbest([k for k in range(T) if k not in S], neg))
    return S

def curve(V,y,l,order,w=None):
    N=len(y); out=[]
    for u in range(1,len(order)+1):
        sc=[[0.0]*l for _ in range(N)]
        for t in order[:u]:
            for r in range(N): sc[r][V[t][r]]+= (w[t] if w else 1.0)
        pred=[max(range(l), key=lambda c:(sc[r][c],-c)) for r in range(N)]
        out.append(sum(pred[r]!=y[r] for r in range(N)))
    return out

def gen(T,N,l,seed,acc=0.7):
    rnd=random.Random(seed)
    y=[rnd.randrange(l) for _ in range(N)]
    V=[[y[r] if rnd.random()<acc else rnd.randrange(l) for r in range(N)] for t in range(T)]
    return V,y

for (T,N,l,seed) in [(7,12,2,1),(7,15,3,2)]:
    V,y=gen(T,N,l,seed)
    print("case",T,N,l,seed)
    print("votes", [x for t in V for x in t])
    print("labels", y)
    print("reduce-error", reduce_error(V,y,l))
    print("complementarity", complementarity(V,y,l))
    print("margin-distance", mdm(V,y,0.075))
    print("orientation", orientation(V,y))
    print("boosting", boosting(V,y))
    print("kappa", kappa_order(V,y,l))
    print("greedy-sdp", greedy_sdp(V,y))
    print("curve-early", curve(V,y,l,list(range(T))))
