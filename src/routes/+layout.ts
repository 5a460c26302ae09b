// The app is a client-rendered SPA served from a static shell (adapter-static fallback).
export const ssr = false;
export const prerender = false;
