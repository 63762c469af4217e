import express from "express";

const router = express.Router();

router.get("/api/orders", (_request, response) => {
  response.json([]);
});

router.get("/api/orders/:id", (request, response) => {
  response.json({ id: request.params.id });
});

router.delete("/api/orders/:id", (_request, response) => {
  response.status(204).end();
});

export default router;
