/**
 * A small invented sample in LoCoMo's shape (the real dataset is non-commercial and stays in
 * ../shared/data): two sessions plus a dated session without turns, as the real files have, and
 * questions covering each category, a malformed and a zero-padded evidence id.
 */
export function syntheticSample() {
  return {
    sample_id: 'synthetic-1',
    conversation: {
      speaker_a: 'Ana',
      speaker_b: 'Ben',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        { speaker: 'Ana', dia_id: 'D1:1', text: 'I adopted a greyhound named Comet last weekend.' },
        { speaker: 'Ben', dia_id: 'D1:2', text: 'Congrats! Greyhounds love short sprints.' },
        { speaker: 'Ana', dia_id: 'D1:3', text: 'I also started pottery classes on Tuesdays.', blip_caption: 'a photo of a clay bowl' },
      ],
      session_2_date_time: '9:00 am on 20 June, 2023',
      session_2: [
        { speaker: 'Ben', dia_id: 'D2:1', text: 'My sister moved to Lisbon for a design job.' },
        { speaker: 'Ana', dia_id: 'D2:2', text: 'Comet ran his first race at the track on Sunday.' },
      ],
      session_3_date_time: '10:00 am on 1 July, 2023',
    },
    qa: [
      { question: 'What is the name of the greyhound Ana adopted?', answer: 'Comet', evidence: ['D1:1'], category: 4 },
      { question: "Which city did Ben's sister move to?", answer: 'Lisbon', evidence: ['D2:1'], category: 1 },
      { question: 'What does Ana make in her pottery classes?', answer: 'bowls', evidence: ['D1:03'], category: 2 },
      { question: 'When did the greyhound race?', answer: 'Sunday', evidence: ['D2:2; D1:1'], category: 3 },
      { question: 'Which question has broken evidence?', answer: 'this', evidence: ['D'], category: 2 },
      { question: 'Which quantum chromodynamics textbook was recommended?', evidence: ['D2:1'], category: 5, adversarial_answer: 'none' },
    ],
  };
}
